/* tests/test_circle.c — circles and circle–box: the seed's cases and a hand-computed case for
 * every sentence of the contract, on the direct call, the typed batches and the mixed batch, on
 * both paths. */
#include <float.h>

#include "test_util.h"

/* A hand-computed case: a circle a against a circle b (b_is_box == 0) or a box b. Values are exact
 * unless tol > 0; then t, normal and point are within tol. */
typedef struct circle_case {
    const char *name;
    mink_circle a;
    mink_vec2 va;
    int b_is_box;
    mink_circle bc;
    mink_aabb bb;
    mink_vec2 vb;
    float dt;
    mink_hit want;
    float tol;
} circle_case;

#define C(x, y, r) {{(x), (y)}, (r)}
#define V(x, y) {(x), (y)}
#define BOX(x0, y0, x1, y1) {{(x0), (y0)}, {(x1), (y1)}}
#define NOBOX BOX(0, 0, 0, 0)
#define NOCIRCLE C(0, 0, 0)
#define HIT(t, nx, ny, depth, px, py, t_exit, flags) {(t), V(nx, ny), (depth), V(px, py), (t_exit), (flags)}
#define NONE HIT(0, 0, 0, 0, 0, 0, 0, 0)
#define INVALID HIT(0, 0, 0, 0, 0, 0, 0, MINK_HIT_INVALID)
#define CONTACT MINK_HIT_CONTACT
#define OVERLAP (MINK_HIT_CONTACT | MINK_HIT_OVERLAP)
#define R2 0.70710678f /* 1/sqrt(2) */

static const circle_case cases[] = {
    /* --- circle–circle: the seed's cases ------------------------------------------------------- */
    /* Head on: centres 10 apart, radii 1 and 1, closing at 20: roots (10 ∓ 2) / 20. */
    {"circles moving toward each other", C(0, 0, 1), V(10, 0), 0, C(10, 0, 1), NOBOX, V(-10, 0), 1,
     HIT(96.0f / 240.0f, -1, 0, 0, 5, 0, 240.0f / 400.0f, CONTACT), 0},
    {"circles already overlapping", C(0, 0, 2), V(0, 0), 0, C(3, 0, 2), NOBOX, V(0, 0), 1,
     HIT(0, -1, 0, 1, 1.5f, 0, INFINITY, OVERLAP), 0},
    /* a reaches the origin at t = 0.5, b at t = 1: closest 2.5·√2 apart, farther than 1. */
    {"paths cross without touching", C(0, -5, 0.5f), V(0, 10), 0, C(-10, 0, 0.5f), NOBOX, V(10, 0), 1, NONE, 0},
    /* b's centre lies exactly R from a's line of motion: a double root. */
    {"graze", C(0, 0, 1), V(10, 0), 0, C(5, 2, 1), NOBOX, V(0, 0), 1, NONE, 0},
    {"touching and approaching: contact at 0", C(0, 0, 1), V(1, 0), 0, C(2, 0, 1), NOBOX, V(0, 0), 1,
     HIT(0, -1, 0, 0, 1, 0, 4, CONTACT), 0},
    {"touching and leaving", C(0, 0, 1), V(-1, 0), 0, C(2, 0, 1), NOBOX, V(0, 0), 1, NONE, 0},
    {"touching, moving along the tangent", C(0, 0, 1), V(0, 3), 0, C(2, 0, 1), NOBOX, V(0, 0), 1, NONE, 0},
    {"zero relative motion, apart", C(0, 0, 1), V(5, 5), 0, C(3, 0, 1), NOBOX, V(5, 5), 1, NONE, 0},
    {"zero relative motion, overlapping", C(0, 0, 1), V(5, 5), 0, C(1, 0, 1), NOBOX, V(5, 5), 1,
     HIT(0, -1, 0, 1, 0.5f, 0, INFINITY, OVERLAP), 0},
    {"overlapping and leaving: t_exit", C(0, 0, 1), V(-1, 0), 0, C(1, 0, 1), NOBOX, V(0, 0), 1,
     HIT(0, -1, 0, 1, 0.5f, 0, 1, OVERLAP), 0},
    /* Concentric: no direction is shorter; the normal is (−1, 0) by rule. */
    {"concentric", C(1, 1, 1), V(0, 0), 0, C(1, 1, 2), NOBOX, V(0, 0), 1, HIT(0, -1, 0, 3, 0.5f, 1, INFINITY, OVERLAP), 0},
    {"dt = 0", C(0, 0, 1), V(100, 0), 0, C(5, 0, 1), NOBOX, V(0, 0), 0, NONE, 0},
    {"contact at t = 1 is outside the step", C(0, 0, 1), V(3, 0), 0, C(5, 0, 1), NOBOX, V(0, 0), 1, NONE, 0},
    {"point circle into a circle", C(-3, 0, 0), V(4, 0), 0, C(0, 0, 1), NOBOX, V(0, 0), 1, HIT(0.5f, -1, 0, 0, -1, 0, 1, CONTACT), 0},
    {"two points never meet", C(0, 0, 0), V(1, 0), 0, C(0.5f, 0, 0), NOBOX, V(0, 0), 1, NONE, 0},
    /* A small fast bullet crosses a target 1 wide in a hundredth of the step. Coordinates near
     * 100 carry 7.6e-6 of rounding, hence the tolerance. */
    {"bullet through a small target", C(-100, 0, 0.1f), V(1000, 0), 0, C(0, 0, 0.5f), NOBOX, V(0, 0), 1,
     HIT(0.0994f, -1, 0, 0, -0.5f, 0, 0.1006f, CONTACT), 1e-5f},
    /* Gap 2^-10 against a speed of 10^4: t = gap / speed to the last bit (the schoolbook formula
     * cancels every digit here). */
    {"gap tiny against the speed", C(-2.0009765625f, 0, 1), V(10000, 0), 0, C(0, 0, 1), NOBOX, V(0, 0), 1,
     HIT(9.765625e-8f, -1, 0, 0, -1, 0, 40009.765625f / 1e8f, CONTACT), 0},
    /* Centres near 10^6, radii 1, half a unit apart: exact. */
    {"coordinates large against the radii", C(999997.5f, 1e6f, 1), V(1, 0), 0, C(1e6f, 1e6f, 1), NOBOX, V(0, 0), 1,
     HIT(0.5f, -1, 0, 0, 999999, 1e6f, 4.5f, CONTACT), 0},
    {"far apart is none, not invalid", C(-1e30f, 0, 1), V(0, 0), 0, C(1e30f, 0, 1), NOBOX, V(0, 0), 1, NONE, 0},
    {"negative radius", C(0, 0, -1), V(0, 0), 0, C(3, 0, 1), NOBOX, V(0, 0), 1, INVALID, 0},
    {"NaN radius", C(0, 0, NAN), V(0, 0), 0, C(3, 0, 1), NOBOX, V(0, 0), 1, INVALID, 0},
    {"infinite centre", C(INFINITY, 0, 1), V(0, 0), 0, C(3, 0, 1), NOBOX, V(0, 0), 1, INVALID, 0},
    {"relative motion overflows", C(0, 0, 1), V(FLT_MAX, 0), 0, C(3, 0, 1), NOBOX, V(-FLT_MAX, 0), 1, INVALID, 0},

    /* --- circle–box ----------------------------------------------------------------------------- */
    {"circle into a face", C(-5, 0.5f, 1), V(8, 0), 1, NOCIRCLE, BOX(0, 0, 1, 1), V(0, 0), 1,
     HIT(0.5f, -1, 0, 0, 0, 0.5f, 0.875f, CONTACT), 0},
    {"box moving into a resting circle", C(0, 5, 1), V(0, 0), 1, NOCIRCLE, BOX(-1, 0, 1, 2), V(0, 4), 1,
     HIT(0.5f, 0, 1, 0, 0, 4, 1.5f, CONTACT), 0},
    /* Diagonal into the corner (0, 0): |(-3 + 4t)·√2| = 1, t = (3 − 1/√2) / 4. */
    {"circle into a corner", C(-3, -3, 1), V(4, 4), 1, NOCIRCLE, BOX(0, 0, 2, 2), V(0, 0), 1,
     HIT(0.57322330f, -R2, -R2, 0, 0, 0, 1.42677670f, CONTACT), 2e-6f},
    /* Through the corner square of the grown box, 1.13 from the corner: no contact. */
    {"past a corner, inside the grown box", C(-2.6f, 1, 1), V(4, -4), 1, NOCIRCLE, BOX(0, 0, 2, 2), V(0, 0), 1, NONE, 0},
    {"touching a face and approaching", C(-1, 1, 1), V(1, 0), 1, NOCIRCLE, BOX(0, 0, 2, 2), V(0, 0), 1,
     HIT(0, -1, 0, 0, 0, 1, 4, CONTACT), 0},
    {"sliding along a face", C(1, 3, 1), V(5, 0), 1, NOCIRCLE, BOX(0, 0, 2, 2), V(0, 0), 1, NONE, 0},
    {"touching a corner (3-4-5)", C(5, 6, 5), V(0, 0), 1, NOCIRCLE, BOX(0, 0, 2, 2), V(0, 0), 1, NONE, 0},
    {"overlapping a corner", C(5, 6, 6), V(0, 0), 1, NOCIRCLE, BOX(0, 0, 2, 2), V(0, 0), 1,
     HIT(0, 0.6f, 0.8f, 1, 1.7f, 1.6f, INFINITY, OVERLAP), 1e-6f},
    {"overlapping a face", C(2.5f, 1, 1), V(0, 0), 1, NOCIRCLE, BOX(0, 0, 2, 2), V(0, 0), 1,
     HIT(0, 1, 0, 0.5f, 1.75f, 1, INFINITY, OVERLAP), 0},
    {"centre inside the box", C(0.5f, 1, 0.25f), V(0, 0), 1, NOCIRCLE, BOX(0, 0, 4, 2), V(0, 0), 1,
     HIT(0, -1, 0, 0.75f, 0.375f, 1, INFINITY, OVERLAP), 0},
    {"centre inside the box, leaving", C(0.5f, 1, 0.25f), V(-1, 0), 1, NOCIRCLE, BOX(0, 0, 4, 2), V(0, 0), 1,
     HIT(0, -1, 0, 0.75f, 0.375f, 1, 0.75f, OVERLAP), 0},
    {"point circle through a box", C(-1, 1, 0), V(4, 0), 1, NOCIRCLE, BOX(0, 0, 2, 2), V(0, 0), 1,
     HIT(0.25f, -1, 0, 0, 0, 1, 0.75f, CONTACT), 0},
    {"point circle along an edge", C(-1, 0, 0), V(4, 0), 1, NOCIRCLE, BOX(0, 0, 2, 2), V(0, 0), 1, NONE, 0},
    {"point circle inside a box", C(0.5f, 1, 0), V(0, 0), 1, NOCIRCLE, BOX(0, 0, 4, 2), V(0, 0), 1,
     HIT(0, -1, 0, 0.5f, 0.25f, 1, INFINITY, OVERLAP), 0},
    {"bullet through a thin wall", C(-5, 0, 0.05f), V(100, 0), 1, NOCIRCLE, BOX(0, -10, 0.125f, 10), V(0, 0), 1,
     HIT(4.95f / 100.0f, -1, 0, 0, 0, 0, 5.175f / 100.0f, CONTACT), 1e-6f},
    {"negative radius against a box", C(0, 0, -1), V(0, 0), 1, NOCIRCLE, BOX(0, 0, 1, 1), V(0, 0), 1, INVALID, 0},
    {"inverted box", C(0, 0, 1), V(0, 0), 1, NOCIRCLE, BOX(1, 0, 0, 1), V(0, 0), 1, INVALID, 0},
    {"negative dt", C(0, 0, 1), V(1, 0), 1, NOCIRCLE, BOX(3, 0, 4, 1), V(0, 0), -1, INVALID, 0},
};
enum { NCASES = sizeof cases / sizeof cases[0] };

static mink_hit direct(const circle_case *c) {
    return c->b_is_box ? mink_sweep_circle_aabb(c->a, c->va, c->bb, c->vb, c->dt)
                       : mink_sweep_circle(c->a, c->va, c->bc, c->vb, c->dt);
}

static int close_to(float got, float want, float tol) { return got == want || fabsf(got - want) <= tol; }

static void scalar_hand_cases(void **state) {
    (void)state;
    for (int i = 0; i < NCASES; i++) {
        const circle_case *c = &cases[i];
        mink_hit got = direct(c);
        const mink_hit *w = &c->want;
        int ok = got.flags == w->flags && close_to(got.t, w->t, c->tol) && close_to(got.normal.x, w->normal.x, c->tol) &&
                 close_to(got.normal.y, w->normal.y, c->tol) && close_to(got.depth, w->depth, c->tol) &&
                 close_to(got.point.x, w->point.x, c->tol) && close_to(got.point.y, w->point.y, c->tol) &&
                 close_to(got.t_exit, w->t_exit, c->tol);
        if (!ok) {
            fprintf(stderr, "case \"%s\"\n", c->name);
            print_hit("got ", &got);
            print_hit("want", w);
            fail_msg("case \"%s\" is wrong", c->name);
        }
        assert_hit_sane(&got);
    }
}

/* The discrete tests are the sweeps without motion. */
static void scalar_overlaps_are_static_sweeps(void **state) {
    (void)state;
    const mink_vec2 still = {0, 0};
    for (int i = 0; i < NCASES; i++) {
        const circle_case *c = &cases[i];
        mink_hit o = c->b_is_box ? mink_overlap_circle_aabb(c->a, c->bb) : mink_overlap_circle(c->a, c->bc);
        mink_hit s = c->b_is_box ? mink_sweep_circle_aabb(c->a, still, c->bb, still, 1)
                                 : mink_sweep_circle(c->a, still, c->bc, still, 1);
        assert_memory_equal(&o, &s, sizeof o);
        if (o.flags & MINK_HIT_OVERLAP) assert_true(isinf(o.t_exit));
    }
}

/* Overlapping by a hair and moving along the tangent: rounding puts the line of motion at R or
 * farther, and the graze test once returned before the exit time was written (found by a search of
 * near-tangent pairs, about one in 6 000). Now an overlap always has its t_exit. */
static const mink_circle tangent_a = {{0x1.118f6p-5f, 0x1.d9b01cp+0f}, 0x1.d9c3dcp+0f};
static const mink_circle tangent_b = {{0, 0}, 0};
static const mink_vec2 tangent_va = {-0x1.79ad7cp+1f, 0x1.b1dc72p-5f};

static void scalar_overlap_moving_along_the_tangent(void **state) {
    (void)state;
    const mink_vec2 still = {0, 0};
    mink_hit h = mink_sweep_circle(tangent_a, tangent_va, tangent_b, still, 1);
    assert_int_equal(h.flags, MINK_HIT_CONTACT | MINK_HIT_OVERLAP);
    assert_hit_sane(&h);
    /* The larger root of |s + d t| = R in double. */
    double sx = tangent_a.center.x, sy = tangent_a.center.y, dx = tangent_va.x, dy = tangent_va.y;
    double R = tangent_a.radius, a = dx * dx + dy * dy, b = sx * dx + sy * dy, c = sx * sx + sy * sy - R * R;
    double t_exit = (-b + sqrt(fmax(b * b - a * c, 0))) / a;
    assert_true(isfinite(h.t_exit) && h.t_exit >= 0);
    assert_true(fabs(h.t_exit - t_exit) < 1e-3);
}

static void opencl_overlap_moving_along_the_tangent(void **state) {
    const paths *p = *state;
    mink_circle_pair rec = {tangent_a, tangent_va, tangent_b, {0, 0}};
    mink_hit got;
    SWEEP_BOTH(p, mink_batch_sweep_circle, &rec, 1, 1.0f, &got);
    assert_int_equal(got.flags, MINK_HIT_CONTACT | MINK_HIT_OVERLAP);
}

/* Every case through its typed batch and through the mixed batch in both orders, on both paths:
 * the same bits as the direct call, and the box–circle order gives the mirror (normal reversed). */
static void opencl_batches_on_both_paths(void **state) {
    const paths *p = *state;
    for (int i = 0; i < NCASES; i++) {
        const circle_case *c = &cases[i];
        if (!(c->dt >= 0)) continue; /* a bad dt is a bad argument to a batch (test_context) */
        mink_hit want = direct(c), got;
        if (c->b_is_box) {
            mink_circle_aabb_pair rec = {c->a, c->va, c->bb, c->vb};
            SWEEP_BOTH(p, mink_batch_sweep_circle_aabb, &rec, 1, c->dt, &got);
        } else {
            mink_circle_pair rec = {c->a, c->va, c->bc, c->vb};
            SWEEP_BOTH(p, mink_batch_sweep_circle, &rec, 1, c->dt, &got);
        }
        assert_hits_identical_records(&got, &want, 1, NULL, 0, c->name);

        mink_body a = mink_body_circle(c->a, c->va);
        mink_body b = c->b_is_box ? mink_body_aabb(c->bb, c->vb) : mink_body_circle(c->bc, c->vb);
        mink_pair both[2] = {{a, b}, {b, a}};
        mink_hit mixed[2];
        SWEEP_BOTH(p, mink_batch_sweep, both, 2, c->dt, mixed);
        assert_hits_identical_records(&mixed[0], &want, 1, NULL, 0, c->name);
        if (c->b_is_box) {
            mink_hit mirror = want;
            mirror.normal.x = 0.0f - want.normal.x;
            mirror.normal.y = 0.0f - want.normal.y;
            assert_hits_identical_records(&mixed[1], &mirror, 1, NULL, 0, c->name);
        }
    }
}

/* Issue 30: the power of two that scales a pair's numbers was chosen for the largest of offset,
 * radius and motion; with a motion near 1e21 or more it underflowed the squares of the offset and
 * radius, so circles apart at t = 0 came back overlapping (with a negative depth) and about one
 * overlapping pair in twenty came back apart. The pair, then random pairs with one
 * velocity up to 2^127 against the overlap at t = 0 in double, and their contacts' normals and
 * points; both paths. */
static void opencl_huge_motion_keeps_the_overlap_at_zero(void **state) {
    const paths *p = *state;
    mink_circle_pair rec = {{{0x1.cba4cep+1f, -0x1.3eaa4p+1f}, 0x1.1de6b2p+3f}, {-0x1.48fe78p+1f, 0x1.cbd9ccp+2f},
                            {{-0x1.6e26f4p+1f, 0x1.366dep+2f}, 0.0f}, {-0x1p+0f, 0x1.fffffep+127f}};
    mink_hit got;
    SWEEP_BOTH(p, mink_batch_sweep_circle, &rec, 1, 0x1.63f5dcp-51f, &got);
    assert_int_equal(got.flags & MINK_HIT_OVERLAP, 0);
    enum { N = 20000 };
    mink_circle_pair *pairs = malloc(N * sizeof *pairs);
    mink_hit *hits = malloc(N * sizeof *hits);
    assert_true(pairs && hits);
    mink_rng rng = mink_rng_seed(30);
    for (int i = 0; i < N; i++) {
        pairs[i].a = (mink_circle){{mink_rng_float(&rng, -10, 10), mink_rng_float(&rng, -10, 10)}, mink_rng_float(&rng, 0.1f, 8)};
        pairs[i].b = (mink_circle){{mink_rng_float(&rng, -10, 10), mink_rng_float(&rng, -10, 10)}, mink_rng_float(&rng, 0, 4)};
        float big = ldexpf(mink_rng_float(&rng, 0.5f, 1.0f), 60 + (int)(mink_rng_u32(&rng) % 68)); /* 2^59 .. 2^127 */
        pairs[i].va = (mink_vec2){mink_rng_float(&rng, -1, 1), mink_rng_float(&rng, -1, 1)};
        pairs[i].vb = i % 2 ? (mink_vec2){big, mink_rng_float(&rng, -1, 1)} : (mink_vec2){mink_rng_float(&rng, -1, 1), -big};
    }
    SWEEP_BOTH(p, mink_batch_sweep_circle, pairs, N, 1.0f, hits);
    int overlaps = 0, contacts = 0, backwards = 0;
    for (int i = 0; i < N; i++) {
        double dx = (double)pairs[i].a.center.x - pairs[i].b.center.x, dy = (double)pairs[i].a.center.y - pairs[i].b.center.y;
        double gap = sqrt(dx * dx + dy * dy) - ((double)pairs[i].a.radius + pairs[i].b.radius);
        if (fabs(gap) < 1e-5) continue; /* touching within rounding: either answer */
        int overlap = (hits[i].flags & MINK_HIT_OVERLAP) != 0;
        if (overlap != (gap < 0)) fail_msg("pair %d: gap %g at t = 0, flags %u", i, gap, hits[i].flags);
        if (overlap) assert_true(hits[i].depth > 0.0f), overlaps++;
        if (hits[i].flags != MINK_HIT_CONTACT) continue;
        /* A contact comes from outside: the point lies on a, which barely moves, at its radius,
         * and the normal faces the side b started from (n · s > 0, s the offset at t = 0). */
        double px = (double)hits[i].point.x - pairs[i].a.center.x, py = (double)hits[i].point.y - pairs[i].a.center.y;
        if (fabs(sqrt(px * px + py * py) - pairs[i].a.radius) > 1e-3 * (1.0 + pairs[i].a.radius))
            fail_msg("pair %d: contact at t %g, point %g from a's centre (radius %g)", i, (double)hits[i].t,
                     sqrt(px * px + py * py), (double)pairs[i].a.radius);
        backwards += !(hits[i].normal.x * dx + hits[i].normal.y * dy > 0.0);
        contacts++;
    }
    /* The contact's normal comes from the offset at t, s + d t: with d 2^70 times s and more, t's
     * last bit moves that point by more than the circles' size, and a few normals (8 of 2 628
     * here; 469 while c was clamped to the least subnormal) face away. A known limit. */
    assert_true(overlaps > N / 20 && contacts > N / 20 && backwards * 100 <= contacts);
    free(pairs), free(hits);
}

/* Issue 30: a disk of radius 2^-25 at (1 - 2^-21, 0) moving (2^-20, 0) hit a point as a circle of
 * radius 0 at t = 0.46875 but missed the same point as a box {(1, 0), (1, 0)} and a segment box
 * through it ((b.min.x - r) - p.x rounded r away). One answer for the one shape, at 1, 2^7, 2^20
 * and 2^30 (everything scaled by the same power of two), on both paths. */
static void opencl_disk_meets_a_point_as_any_shape(void **state) {
    const paths *p = *state;
    for (int e = 0; e <= 30; e += (e == 0 ? 7 : e == 7 ? 13 : 10)) {
        float x = ldexpf(1.0f, e);
        mink_circle disk = {{x - ldexpf(x, -21), 0.0f}, ldexpf(x, -25)};
        mink_vec2 v = {ldexpf(x, -20), 0.0f}, still = {0.0f, 0.0f};
        mink_circle_pair as_circle = {disk, v, {{x, 0.0f}, 0.0f}, still};
        mink_circle_aabb_pair as_box[2] = {{disk, v, {{x, 0.0f}, {x, 0.0f}}, still},
                                           {disk, v, {{x, -x}, {x, x}}, still}};
        mink_hit hc, hb[2];
        SWEEP_BOTH(p, mink_batch_sweep_circle, &as_circle, 1, 1.0f, &hc);
        SWEEP_BOTH(p, mink_batch_sweep_circle_aabb, as_box, 2, 1.0f, hb);
        assert_int_equal(hc.flags, MINK_HIT_CONTACT);
        assert_true(hc.t == 0.46875f);
        for (int k = 0; k < 2; k++) {
            assert_int_equal(hb[k].flags, MINK_HIT_CONTACT);
            assert_true(hb[k].t == 0.46875f);
            assert_true(hb[k].normal.x == -1.0f && hb[k].normal.y == 0.0f);
        }
        /* Overlapping at the start by half the radius: the same for all three. */
        mink_circle in = {{x - ldexpf(x, -26), 0.0f}, ldexpf(x, -25)};
        mink_hit oc = mink_overlap_circle(in, (mink_circle){{x, 0.0f}, 0.0f});
        mink_hit ob = mink_overlap_circle_aabb(in, (mink_aabb){{x, 0.0f}, {x, 0.0f}});
        assert_int_equal(oc.flags & MINK_HIT_OVERLAP, MINK_HIT_OVERLAP);
        assert_int_equal(ob.flags & MINK_HIT_OVERLAP, MINK_HIT_OVERLAP);
    }
}

/* A body with no shape, or an unknown one, is INVALID; the other pairs are untouched. */
static void opencl_mixed_batch_bad_tags(void **state) {
    const paths *p = *state;
    enum { N = 3000 };
    mink_pair *pairs = malloc(N * sizeof *pairs);
    mink_hit *want = malloc(N * sizeof *want), *got = malloc(N * sizeof *got);
    assert_true(pairs && want && got);
    mink_sample_pairs(8, N, pairs);
    SWEEP_BOTH(p, mink_batch_sweep, pairs, N, 1, want);
    const uint32_t bad[] = {MINK_SHAPE_NONE, 3, 0x40000001u, 0xffffffffu};
    for (size_t i = 0; i < N; i += 5) (i % 2 ? &pairs[i].a : &pairs[i].b)->type = bad[(i / 5) % 4];
    SWEEP_BOTH(p, mink_batch_sweep, pairs, N, 1, got);
    mink_hit invalid = {0};
    invalid.flags = MINK_HIT_INVALID;
    for (size_t i = 0; i < N; i++)
        assert_hits_identical_records(&got[i], i % 5 ? &want[i] : &invalid, 1, &pairs[i], sizeof pairs[i], "tagged");
    /* A zeroed pair is invalid too. */
    mink_pair zero = {0};
    mink_hit h;
    SWEEP_BOTH(p, mink_batch_sweep, &zero, 1, 1, &h);
    assert_int_equal(h.flags, MINK_HIT_INVALID);
    free(pairs), free(want), free(got);
}

/* The branch-free exponent and scaling the circle queries use (mink/geom.h) against the C
 * library's frexpf and ldexpf, bit for bit: every exponent and scale the queries can ask for, on
 * floats from every binade, subnormals, zeros and the largest float. */
static void scaling_matches_frexpf_and_ldexpf(void **state) {
    (void)state;
    float xs[4096];
    size_t n = 0;
    const float edge[] = {0.0f, -0.0f, FLT_MIN, -FLT_MIN, FLT_MAX, -FLT_MAX, 1e-45f, -1e-45f, 1.0f, 0.75f, 3.0f};
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) xs[n++] = edge[i];
    for (uint32_t e = 0; e < 255; e++) /* a few mantissas in every binade, both signs */
        for (uint32_t m = 0; m < 8; m++) {
            uint32_t bits = e << 23 | (m * 0x0fedcbu & 0x7fffffu);
            xs[n++] = mink_bits_float(bits);
            xs[n++] = mink_bits_float(bits | 0x80000000u);
        }
    for (size_t i = 0; i < n; i++) {
        float x = xs[i], m = fabsf(x);
        int want = 0;
        frexpf(m, &want);
        if (mink_exponent(m) != want) fail_msg("mink_exponent(%a) = %d, frexpf says %d", (double)m, mink_exponent(m), want);
        for (int k = -149; k <= 167; k++) {
            float got = mink_scale(x, k), expect = ldexpf(x, k);
            if (memcmp(&got, &expect, sizeof got) != 0)
                fail_msg("mink_scale(%a, %d) = %a, ldexpf gives %a", (double)x, k, (double)got, (double)expect);
        }
    }
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scaling_matches_frexpf_and_ldexpf),
        cmocka_unit_test(scalar_hand_cases),
        cmocka_unit_test(scalar_overlaps_are_static_sweeps),
        cmocka_unit_test(scalar_overlap_moving_along_the_tangent),
        cmocka_unit_test_setup_teardown(opencl_overlap_moving_along_the_tangent, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(opencl_batches_on_both_paths, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(opencl_mixed_batch_bad_tags, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(opencl_huge_motion_keeps_the_overlap_at_zero, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(opencl_disk_meets_a_point_as_any_shape, paths_setup, paths_teardown),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests_name("circle", tests, NULL, NULL);
}
