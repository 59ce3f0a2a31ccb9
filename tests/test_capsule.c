/* tests/test_capsule.c — capsules (issue 31): hand-computed cases (end on, flat, collinear,
 * touching, grazing, zero radius, zero length, rays from inside, along a face, ending on it), random
 * pairs of every kind against the double-precision oracle of oracle2d.h (a capsule there is two
 * points rounded by a radius, met through the hull of all vertex differences: no code or method
 * shared with mink's), OpenCL == scalar under memcmp for typed, mixed, rotating and ray batches,
 * turning capsules by conservative advancement against sampled true contacts, and capsules in a
 * world (walls, bodies, rays, casts, overlaps) by hand on both paths. */
#include "oracle_check.h"

static mink_capsule capsule(float x1, float y1, float x2, float y2, float r) {
    return (mink_capsule){{x1, y1}, {x2, y2}, r};
}

static mink_aabb box(float x0, float y0, float x1, float y1) { return (mink_aabb){{x0, y0}, {x1, y1}}; }

static void assert_hit(mink_hit h, uint32_t flags, float t, float nx, float ny, float px, float py) {
    if (h.flags != flags || h.t != t || h.normal.x != nx || h.normal.y != ny || h.point.x != px || h.point.y != py) {
        print_hit("got", &h);
        fail_msg("want flags %u t %a normal (%a, %a) point (%a, %a)", flags, (double)t, (double)nx, (double)ny,
                 (double)px, (double)py);
    }
}

/* ---- hand-computed cases ----------------------------------------------------------------------- */

static void end_on_against_a_box(void **state) {
    (void)state;
    /* The right end's disk (x 2 + 0.5) reaches the box's face at x 5 after 2.5 of 10 units. */
    mink_hit h = mink_sweep_capsule_aabb(capsule(0, 0, 2, 0, 0.5f), mink_v2(10, 0), box(5, -1, 6, 1), mink_v2(0, 0), 1);
    assert_hit(h, MINK_HIT_CONTACT, 0.25f, -1, 0, 5, 0);
    assert_true(h.t_exit == 0.65f); /* the left end's disk leaves x 6 at 6.5 units */
    /* The mirror, and through a body of each kind. */
    mink_hit m = mink_sweep_bodies(mink_body_aabb(box(5, -1, 6, 1), mink_v2(0, 0)),
                                   mink_body_capsule(capsule(0, 0, 2, 0, 0.5f), mink_v2(10, 0)), 1);
    assert_hit(m, MINK_HIT_CONTACT, 0.25f, 1, 0, 5, 0);
    /* A corner of the box meets the round end: the disk of radius 0.5 about (2 + 10 t, 0) reaches
     * the corner (5, 0.3) when 3 - 10 t = 0.4. */
    h = mink_sweep_capsule_aabb(capsule(0, 0, 2, 0, 0.5f), mink_v2(10, 0), box(5, 0.3f, 6, 1), mink_v2(0, 0), 1);
    assert_int_equal(h.flags, MINK_HIT_CONTACT);
    assert_true(fabs(h.t - 0.26) < 1e-6);
    assert_true(fabs(h.normal.x + 0.8) < 1e-6 && fabs(h.normal.y + 0.6) < 1e-6);
    assert_true(fabs(h.point.x - 5) < 1e-5 && fabs(h.point.y - 0.3) < 1e-5);
}

static void flat_sides_meet_in_the_middle(void **state) {
    (void)state;
    /* Two horizontal capsules, 2 apart, radii 0.5: they touch after 1 of the 2 units; the faces
     * share x in [1, 3], so the point is (2, 0.5). */
    mink_hit h = mink_sweep_capsule(capsule(0, 2, 4, 2, 0.5f), mink_v2(0, -2), capsule(1, 0, 3, 0, 0.5f), mink_v2(0, 0), 1);
    assert_hit(h, MINK_HIT_CONTACT, 0.5f, 0, 1, 2, 0.5f);
    /* A capsule lying flat on a box's top face. */
    h = mink_sweep_capsule_aabb(capsule(-1, 3, 1, 3, 0.5f), mink_v2(0, -4), box(0, 0, 4, 1), mink_v2(0, 0), 1);
    assert_hit(h, MINK_HIT_CONTACT, 0.375f, 0, 1, 0.5f, 1);
}

static void collinear_segments_meet_end_to_end(void **state) {
    (void)state;
    /* On one line: the gap between the ends (2) less both radii (0.5) closes after 1.5 of 4 units. */
    mink_hit h = mink_sweep_capsule(capsule(0, 0, 1, 0, 0.25f), mink_v2(4, 0), capsule(3, 0, 4, 0, 0.25f), mink_v2(0, 0), 1);
    assert_hit(h, MINK_HIT_CONTACT, 0.375f, -1, 0, 2.75f, 0);
    /* Moving along their line, side by side but apart across it: never. */
    h = mink_sweep_capsule(capsule(0, 0, 1, 0, 0.25f), mink_v2(4, 0), capsule(3, 1, 4, 1, 0.25f), mink_v2(0, 0), 1);
    assert_int_equal(h.flags, 0);
    /* A circle on the line beyond an end, turning: conservative advancement must not see the
     * segment's line as the segment (the test a point needs along the segment itself). */
    mink_body spin = mink_body_capsule(capsule(-1, 0, 1, 0, 0.1f), mink_v2(0, 0));
    spin.angular_velocity = 0.5f;
    h = mink_sweep_bodies(spin, mink_body_circle((mink_circle){{3, 0}, 0.1f}, mink_v2(0, 0)), 1);
    assert_int_equal(h.flags, 0);
}

static void touching_and_grazing_are_not_contact(void **state) {
    (void)state;
    mink_capsule c = capsule(0, 0, 2, 0, 0.5f);
    mink_aabb above = box(0, 0.5f, 2, 1.5f);
    assert_int_equal(mink_sweep_capsule_aabb(c, mink_v2(0, 0), above, mink_v2(0, 0), 1).flags, 0);
    assert_int_equal(mink_sweep_capsule_aabb(c, mink_v2(3, 0), above, mink_v2(0, 0), 1).flags, 0);
    /* Two capsules side by side, exactly touching, sliding past each other. */
    assert_int_equal(mink_sweep_capsule(c, mink_v2(5, 0), capsule(0, 1, 2, 1, 0.5f), mink_v2(-5, 0), 1).flags, 0);
    /* Arriving exactly at the step's end. */
    assert_int_equal(mink_sweep_capsule_aabb(c, mink_v2(2.5f, 0), box(5, -1, 6, 1), mink_v2(0, 0), 1).flags, 0);
    /* Already overlapping: the shortest way out, up through the flat side. */
    mink_hit h = mink_sweep_capsule_aabb(c, mink_v2(0, 0), box(0.5f, 0.25f, 1.5f, 1), mink_v2(0, 0), 1);
    assert_int_equal(h.flags, MINK_HIT_CONTACT | MINK_HIT_OVERLAP);
    assert_true(h.depth == 0.25f && h.normal.x == 0 && h.normal.y == -1);
}

static void zero_radius_and_zero_length(void **state) {
    (void)state;
    /* A segment (radius 0) enters a box's interior when its front end crosses the face. */
    mink_hit h = mink_sweep_capsule_aabb(capsule(-2, 0, -1, 0, 0), mink_v2(4, 0), box(0, -1, 1, 1), mink_v2(0, 0), 1);
    assert_hit(h, MINK_HIT_CONTACT, 0.25f, -1, 0, 0, 0);
    /* A segment sliding along the box's top edge never enters it. */
    assert_int_equal(mink_sweep_capsule_aabb(capsule(-2, 1, -1, 1, 0), mink_v2(4, 0), box(0, -1, 1, 1), mink_v2(0, 0), 1).flags, 0);
    /* Two segments that cross are a contact; two parallel ones never are. */
    h = mink_sweep_capsule(capsule(-1, 0, 1, 0, 0), mink_v2(0, 0), capsule(0, -1, 0, 1, 0), mink_v2(0, 0), 1);
    assert_int_equal(h.flags, MINK_HIT_CONTACT | MINK_HIT_OVERLAP);
    assert_int_equal(mink_sweep_capsule(capsule(-1, 0, 1, 0, 0), mink_v2(0, 1), capsule(-1, 2, 1, 2, 0), mink_v2(0, 0), 1).flags, 0);
    /* A capsule of one point is a circle, bit for bit, against every shape. */
    mink_capsule dot = capsule(0.3f, -0.2f, 0.3f, -0.2f, 0.4f);
    mink_circle disk = {{0.3f, -0.2f}, 0.4f};
    mink_vec2 v = mink_v2(2.5f, 1.25f), still = mink_v2(0, 0);
    mink_aabb b = box(1.5f, 0, 2.5f, 2);
    mink_hit want = mink_sweep_circle_aabb(disk, v, b, still, 1), got = mink_sweep_capsule_aabb(dot, v, b, still, 1);
    assert_memory_equal(&got, &want, sizeof want);
    assert_true(want.flags & MINK_HIT_CONTACT);
    mink_circle other = {{2.5f, 1.5f}, 0.5f};
    want = mink_sweep_circle(disk, v, other, still, 1), got = mink_sweep_capsule_circle(dot, v, other, still, 1);
    assert_memory_equal(&got, &want, sizeof want);
    got = mink_sweep_capsule(dot, v, capsule(2.5f, 1.5f, 2.5f, 1.5f, 0.5f), still, 1);
    assert_memory_equal(&got, &want, sizeof want);
    /* Bad input. */
    assert_int_equal(mink_sweep_capsule_aabb(capsule(0, 0, 1, 0, -1), v, b, still, 1).flags, MINK_HIT_INVALID);
    assert_int_equal(mink_sweep_capsule_circle(capsule(0, NAN, 1, 0, 1), v, other, still, 1).flags, MINK_HIT_INVALID);
    assert_int_equal(mink_sweep_capsule(capsule(0, 0, 1, 0, INFINITY), v, dot, still, 1).flags, MINK_HIT_INVALID);
    assert_false(mink_body_is_valid(mink_body_capsule(capsule(0, 0, 1, 0, -0.5f), v)));
    assert_true(mink_body_is_valid(mink_body_capsule(capsule(0, 0, 0, 0, 0), v)));
}

/* Cases a review found, each once wrong. */
static void review_cases(void **state) {
    (void)state;
    /* A polygon 2.75 long and 2.7e-7 thick, nearly parallel to a short capsule: its projections
     * across the capsule round up and down in turn, and K once grew twelve corners into ten. */
    const mink_vec2 pts[8] = {{0x1.6001bcp+0f, 0x1.31599ap-27f}, {0x1.cdccccp-1f, 0x1.bf64d2p-24f},
                              {-0x1.0c4672p-4f, 0x1.2790fap-23f}, {-0x1.027e32p+0f, 0x1.92ae2ap-24f},
                              {-0x1.600592p+0f, 0x1.2e39cep-27f}, {-0x1.0d8b4p+0f, -0x1.7dbdc6p-24f},
                              {-0x1.6db434p-4f, -0x1.274768p-23f}, {0x1.c05442p-1f, -0x1.c8ef16p-24f}};
    mink_polygon thin;
    assert_int_equal(mink_polygon_make(pts, 8, mink_v2(-0x1.7a7d4ep+9f, 0x1.e33ed8p+9f), 0x1.63de04p+1f, &thin),
                     MINK_POLYGON_OK);
    mink_capsule c = capsule(0x1.de2618p+1f, 0x1.5c733p+2f, 0x1.cc77e6p+1f, 0x1.5fcaaep+2f, 0.5f);
    mink_hull hb = mink_polygon_hull(thin, mink_v2(0, 0), thin.angle);
    mink_hull k = mink_hull_minus_segment(&hb, c.center1, c.center2);
    assert_true(k.count <= 10 && k.count >= 3);
    assert_int_equal(mink_sweep_capsule_polygon(c, mink_v2(0, 0), thin, mink_v2(0, 0), 1).flags, 0);
    /* Two capsules on one line, 1.03 apart, the line's slope 1.4 (their directions parallel only
     * to rounding): apart at rest, and meeting at the right time when one moves along it. */
    float x0 = 0.37f * 14 - 7.f, s = 1.4f;
    mink_capsule a = capsule(x0, x0 * s, x0 + 1, (x0 + 1) * s, 0.25f);
    mink_capsule b = capsule(x0 + 1.6f, (x0 + 1.6f) * s, x0 + 3, (x0 + 3) * s, 0.25f);
    assert_int_equal(mink_sweep_capsule(a, mink_v2(0, 0), b, mink_v2(0, 0), 1).flags, 0);
    mink_hit h = mink_sweep_capsule(a, mink_v2(1, s), b, mink_v2(0, 0), 1);
    double len = sqrt(1 + (double)s * s);
    assert_int_equal(h.flags, MINK_HIT_CONTACT);
    assert_true(fabs(h.t - (0.6 * len - 0.5) / len) < 1e-5);
    /* A short capsule far from a circle, fast: b less either end rounds to one place. */
    h = mink_sweep_capsule_circle(capsule(0, 0, 0.1f, 0, 1), mink_v2(2e7f, 0), (mink_circle){{1e7f, 3}, 1}, mink_v2(0, 0), 1);
    assert_int_equal(h.flags, 0);
    /* A capsule of one point, turning, is the circle: the same bits. */
    mink_body lid = mink_body_aabb(box(3, -1, 4, 1), mink_v2(0, 0)), disk = mink_body_circle((mink_circle){{0, 0}, 0.5f}, mink_v2(4, 0));
    mink_body dot = mink_body_capsule(capsule(0, 0, 0, 0, 0.5f), mink_v2(4, 0));
    lid.angular_velocity = 1;
    for (int k2 = 0; k2 < 2; k2++) {
        disk.angular_velocity = dot.angular_velocity = k2 ? 3.0f : 1e5f;
        mink_hit want = mink_sweep_bodies(disk, lid, 1), got = mink_sweep_bodies(dot, lid, 1);
        assert_memory_equal(&got, &want, sizeof want);
        want = mink_sweep_bodies(lid, disk, 1), got = mink_sweep_bodies(lid, dot, 1);
        assert_memory_equal(&got, &want, sizeof want);
    }
    mink_hit want = mink_sweep_bodies(disk, mink_body_circle((mink_circle){{2, 0.3f}, 0.5f}, mink_v2(0, 0)), 1);
    mink_hit got = mink_sweep_bodies(disk, mink_body_capsule(capsule(2, 0.3f, 2, 0.3f, 0.5f), mink_v2(0, 0)), 1);
    assert_memory_equal(&got, &want, sizeof want);
    /* Hair-thin capsules on one line, fast along it (CI's fuzzer): the far end's disk, solved
     * from a start many radii away, gave an exit a float before the contact. */
    mink_capsule thin_a = capsule(-0x1.5abb44p+10f, -0x1.d1ba2p+9f, -0x1.208c5p+11f, -0x1.7b75a4p+11f, 0x1.22843ap-30f);
    mink_capsule thin_b = capsule(-0x1.bb8184p+12f, -0x1.b4864p+13f, -0x1.42bc2ap+13f, -0x1.4d8ff8p+14f, 0x1.55e37p-22f);
    mink_vec2 va = mink_v2(-0x1.a2fd68p+19f, -0x1.de65dap+20f), vb = mink_v2(0x1.a2fd68p+18f, 0x1.de65dap+19f);
    for (int k2 = 0; k2 < 2; k2++) {
        h = k2 ? mink_sweep_capsule(thin_b, vb, thin_a, va, 1) : mink_sweep_capsule(thin_a, va, thin_b, vb, 1);
        assert_int_equal(h.flags, MINK_HIT_CONTACT);
        assert_true(fabs(h.t - 0x1.e78b0cp-9) < 1e-6 && h.t_exit >= h.t);
    }
    /* A short capsule 10 degrees off the side of a long segment meets it with its leading end:
     * the long one's length once counted as the short one's flatness, and the point came out in
     * the short one's middle, 0.027 away (the capsule batch's oracle test found it). */
    mink_capsule wall = capsule(51.3f, -49.4f, 51.3f, -0.3f, 0.025f);
    mink_capsule bullet = capsule(46.78f, -42.06f, 46.79f, -42.0f, 0.05f);
    for (int k2 = 0; k2 < 2; k2++) {
        h = k2 ? mink_hit_mirror(mink_sweep_capsule(wall, mink_v2(0, 0), bullet, mink_v2(24, -0.9f), 1))
               : mink_sweep_capsule(bullet, mink_v2(24, -0.9f), wall, mink_v2(0, 0), 1);
        assert_int_equal(h.flags, MINK_HIT_CONTACT);
        double t = (51.3 - 0.025 - 0.05 - 46.79) / 24; /* the end at x 46.79 leads */
        assert_true(fabs(h.t - t) < 1e-5 && h.normal.x == -1.0f && h.normal.y == 0.0f);
        assert_true(fabs(h.point.x - (51.3 - 0.025)) < 1e-4 && fabs(h.point.y - (-42.0 - 0.9 * t)) < 1e-4);
    }
}

static void rays_against_capsules(void **state) {
    (void)state;
    mink_body c = mink_body_capsule(capsule(0, 0, 2, 0, 0.5f), mink_v2(0, 0));
    /* Into the round end. */
    mink_hit h = mink_cast_ray((mink_ray){{4, 0}, {-4, 0}}, c);
    assert_hit(h, MINK_HIT_CONTACT, 0.375f, 1, 0, 2.5f, 0);
    assert_true(h.t_exit == 1.125f);
    /* From inside: t 0, the shortest way out (up, 0.3). */
    h = mink_cast_ray((mink_ray){{1, 0.2f}, {0, 5}}, c);
    assert_int_equal(h.flags, MINK_HIT_CONTACT | MINK_HIT_OVERLAP);
    assert_true(h.t == 0 && h.normal.x == 0 && h.normal.y == 1 && fabs(h.depth - 0.3) < 1e-7);
    /* Along the flat side, and ending exactly on it: no contact. */
    assert_int_equal(mink_cast_ray((mink_ray){{-3, 0.5f}, {8, 0}}, c).flags, 0);
    assert_int_equal(mink_cast_ray((mink_ray){{1, 2}, {0, -1.5f}}, c).flags, 0);
    /* Across the middle, from above. */
    h = mink_cast_ray((mink_ray){{1, 2}, {0, -3}}, c);
    assert_hit(h, MINK_HIT_CONTACT, 0.5f, 0, 1, 1, 0.5f);
}

static void a_turning_capsule_meets_a_box(void **state) {
    (void)state;
    /* A capsule across the origin turning a quarter turn under a box whose bottom is at 0.5: its
     * segment comes within 0.1 of the box's bottom corners (±0.2, 0.5) once tan θ >= 0.4 / 0.2,
     * less the rounding of those corners: somewhat before θ = 63.4°. */
    mink_body spin = mink_body_capsule(capsule(-1, 0, 1, 0, 0.1f), mink_v2(0, 0));
    spin.angular_velocity = 1.5707964f;
    mink_body lid = mink_body_aabb(box(-0.2f, 0.5f, 0.2f, 1), mink_v2(0, 0));
    mink_hit h = mink_sweep_bodies(spin, lid, 1);
    assert_true(h.flags & MINK_HIT_CONTACT);
    assert_true(h.t > 0.55f && h.t < 63.44f / 90.0f);
    dshape a = d_body_at(&spin, 1, h.t), b = d_body_at(&lid, 1, h.t);
    double gap = d_gap(&a, (dv2){0, 0}, &b, (dv2){0, 0});
    assert_true(gap > -1e-6 && gap < 2.2 / 1024.0 + 1e-6); /* within the default target */
}

/* ---- random pairs against the oracle, both paths ----------------------------------------------- */

static uint64_t rng_state;
static float frand(float lo, float hi) {
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * (float)((rng_state >> 40) * (1.0 / 16777216.0));
}

static mink_capsule random_capsule(void) {
    float x = frand(-3, 3), y = frand(-3, 3), a = frand(0, 6.2831853f), h = frand(0, 1.5f);
    float r = frand(0, 1) < 0.1f ? 0.0f : frand(0.05f, 1);
    if (frand(0, 1) < 0.05f) h = 0; /* a circle */
    float dx = h * cosf(a), dy = h * sinf(a);
    return capsule(x - dx, y - dy, x + dx, y + dy, r);
}

static mink_body random_other(int kind) {
    mink_vec2 v = mink_v2(frand(-6, 6), frand(-6, 6));
    float x = frand(-3, 3), y = frand(-3, 3);
    if (kind == MINK_SHAPE_AABB) {
        float hx = frand(0, 1) < 0.05f ? 0.0f : frand(0.05f, 1.5f), hy = frand(0.05f, 1.5f);
        return mink_body_aabb(box(x - hx, y - hy, x + hx, y + hy), v);
    }
    if (kind == MINK_SHAPE_CIRCLE) return mink_body_circle((mink_circle){{x, y}, frand(0, 1)}, v);
    if (kind == MINK_SHAPE_POLYGON) {
        mink_vec2 pts[8];
        uint32_t n = 3 + (uint32_t)frand(0, 5.99f);
        float r = frand(0.3f, 1.5f), turn = 6.2831853f / (float)n;
        for (uint32_t i = 0; i < n; i++) {
            float a = turn * ((float)i + frand(0.1f, 0.9f));
            pts[i] = mink_v2(r * cosf(a), r * sinf(a));
        }
        mink_polygon p;
        if (mink_polygon_make(pts, n, mink_v2(x, y), frand(-3, 3), &p) != MINK_POLYGON_OK) return random_other(kind);
        return mink_body_polygon(p, v);
    }
    return mink_body_capsule(random_capsule(), v);
}

static dshape d_of(const mink_body *b) { return d_body_at(b, 0, 0); }

#define RANDOM_PAIRS (1u << 14)
#define CHECK_EVERY 4 /* the oracle is slow: every 4th pair */

/* Capsules against each kind, a then b swapped every other pair: the mixed batch on both paths
 * under memcmp, and each answer (mirrored back when swapped) against the oracle. */
static void random_pairs_against_the_oracle(void **state) {
    const paths *p = *state;
    const int kinds[4] = {MINK_SHAPE_AABB, MINK_SHAPE_CIRCLE, MINK_SHAPE_POLYGON, MINK_SHAPE_CAPSULE};
    const char *names[4] = {"capsule-box", "capsule-circle", "capsule-polygon", "capsule-capsule"};
    mink_pair *pairs = malloc(RANDOM_PAIRS * sizeof *pairs);
    mink_hit *hits = malloc(RANDOM_PAIRS * sizeof *hits);
    assert_true(pairs && hits);
    for (int k = 0; k < 4; k++) {
        rng_state = 31 + (uint64_t)k;
        for (size_t i = 0; i < RANDOM_PAIRS; i++) {
            mink_body a = mink_body_capsule(random_capsule(), mink_v2(frand(-6, 6), frand(-6, 6)));
            mink_body b = random_other(kinds[k]);
            pairs[i] = (i & 1) ? (mink_pair){b, a} : (mink_pair){a, b};
        }
        SWEEP_BOTH(p, mink_batch_sweep, pairs, RANDOM_PAIRS, 1.0f, hits);
        tally t = {0};
        for (size_t i = 0; i < RANDOM_PAIRS; i += CHECK_EVERY - 1) { /* odd and even in turn */
            mink_hit h = (i & 1) ? mink_hit_mirror(hits[i]) : hits[i];
            const mink_body *a = (i & 1) ? &pairs[i].b : &pairs[i].a, *b = (i & 1) ? &pairs[i].a : &pairs[i].b;
            dshape sa = d_of(a), sb = d_of(b);
            check_against_oracle(&t, i, &sa, (dv2){a->velocity.x, a->velocity.y}, &sb,
                                 (dv2){b->velocity.x, b->velocity.y}, &h);
        }
        report(names[k], RANDOM_PAIRS / (CHECK_EVERY - 1), &t);
    }
    free(pairs), free(hits);
}

/* The typed batches (mink_batch_sweep_capsule, _capsule_circle) on both paths under memcmp: each
 * hit the single query's bits and the mixed batch's, and every few against the oracle; random
 * records first, then the library's sample (aimed pairs, bullets through thin walls). */
#define TYPED_BATCH_CHECK(p, record, fn, single, body_b, what, make)                                            \
    do {                                                                                                       \
        record *in = malloc(RANDOM_PAIRS * sizeof *in);                                                        \
        mink_pair *mixed = malloc(RANDOM_PAIRS * sizeof *mixed);                                               \
        mink_hit *hits = malloc(RANDOM_PAIRS * sizeof *hits), *mh = malloc(RANDOM_PAIRS * sizeof *mh);         \
        assert_true(in && mixed && hits && mh);                                                                \
        for (int sample = 0; sample < 2; sample++) {                                                           \
            make(sample, in);                                                                                  \
            SWEEP_BOTH(p, fn, in, RANDOM_PAIRS, 1.0f, hits);                                                   \
            for (size_t i = 0; i < RANDOM_PAIRS; i++)                                                          \
                mixed[i] = (mink_pair){mink_body_capsule(in[i].a, in[i].va), body_b(in[i].b, in[i].vb)};       \
            assert_int_equal(mink_batch_sweep(p->scalar, mixed, RANDOM_PAIRS, 1.0f, mh), MINK_OK);             \
            tally t = {0};                                                                                     \
            for (size_t i = 0; i < RANDOM_PAIRS; i++) {                                                        \
                mink_hit one = single(in[i].a, in[i].va, in[i].b, in[i].vb, 1.0f);                             \
                if (memcmp(&one, &hits[i], sizeof one) || memcmp(&mh[i], &hits[i], sizeof one))                \
                    fail_msg("%s %zu: the batch differs from the single query or the mixed batch", what, i);  \
                if (i % CHECK_EVERY) continue;                                                                 \
                dshape sa = d_of(&mixed[i].a), sb = d_of(&mixed[i].b);                                         \
                check_against_oracle(&t, i, &sa, (dv2){in[i].va.x, in[i].va.y}, &sb,                           \
                                     (dv2){in[i].vb.x, in[i].vb.y}, &hits[i]);                                 \
            }                                                                                                  \
            report(sample ? what " (sample)" : what, RANDOM_PAIRS / CHECK_EVERY, &t);                          \
        }                                                                                                      \
        free(in), free(mixed), free(hits), free(mh);                                                           \
    } while (0)

static void capsule_records(int sample, mink_capsule_pair *in) {
    if (sample) mink_sample_capsule_pairs(5, RANDOM_PAIRS, in);
    for (size_t i = 0; !sample && i < RANDOM_PAIRS; i++) {
        in[i].a = random_capsule(), in[i].va = mink_v2(frand(-6, 6), frand(-6, 6));
        in[i].b = random_capsule(), in[i].vb = mink_v2(frand(-6, 6), frand(-6, 6));
    }
}

static void capsule_circle_records(int sample, mink_capsule_circle_pair *in) {
    if (sample) mink_sample_capsule_circle_pairs(5, RANDOM_PAIRS, in);
    for (size_t i = 0; !sample && i < RANDOM_PAIRS; i++) {
        in[i].a = random_capsule(), in[i].va = mink_v2(frand(-6, 6), frand(-6, 6));
        in[i].b = (mink_circle){{frand(-3, 3), frand(-3, 3)}, frand(0, 1)};
        in[i].vb = mink_v2(frand(-6, 6), frand(-6, 6));
    }
}

static void typed_batches_against_the_oracle(void **state) {
    const paths *p = *state;
    rng_state = 91;
    TYPED_BATCH_CHECK(p, mink_capsule_pair, mink_batch_sweep_capsule, mink_sweep_capsule, mink_body_capsule,
                      "capsule batch", capsule_records);
    TYPED_BATCH_CHECK(p, mink_capsule_circle_pair, mink_batch_sweep_capsule_circle, mink_sweep_capsule_circle,
                      mink_body_circle, "capsule-circle batch", capsule_circle_records);
}

/* Rays (points swept) against capsules: the ray batch on both paths, each hit against the oracle. */
static void random_rays_against_the_oracle(void **state) {
    const paths *p = *state;
    mink_ray_cast *casts = malloc(RANDOM_PAIRS * sizeof *casts);
    mink_hit *hits = malloc(RANDOM_PAIRS * sizeof *hits);
    assert_true(casts && hits);
    rng_state = 77;
    for (size_t i = 0; i < RANDOM_PAIRS; i++) {
        casts[i].body = mink_body_capsule(random_capsule(), mink_v2(0, 0));
        /* Most aimed near the capsule, some anywhere. */
        mink_vec2 o = {frand(-4, 4), frand(-4, 4)}, at = mink_capsule_middle(casts[i].body.shape.capsule);
        float reach = frand(0.3f, 1.6f), aim = frand(0, 1) < 0.8f ? 1.0f : 0.0f;
        mink_vec2 d = {(at.x - o.x) * reach * aim + frand(-2, 2), (at.y - o.y) * reach * aim + frand(-2, 2)};
        casts[i].ray = (mink_ray){o, d};
    }
    mink_hit *cl = malloc(RANDOM_PAIRS * sizeof *cl);
    assert_non_null(cl);
    assert_int_equal(mink_batch_cast_ray(p->scalar, casts, RANDOM_PAIRS, hits), MINK_OK);
    assert_int_equal(mink_batch_cast_ray(p->opencl, casts, RANDOM_PAIRS, cl), MINK_OK);
    assert_hits_identical_records(cl, hits, RANDOM_PAIRS, casts, sizeof *casts, "rays: OpenCL and scalar");
    free(cl);
    tally t = {0};
    for (size_t i = 0; i < RANDOM_PAIRS; i += CHECK_EVERY) {
        dshape point = {.v = {{casts[i].ray.origin.x, casts[i].ray.origin.y}}, .n = 1, .r = 0};
        dshape c = d_of(&casts[i].body);
        check_against_oracle(&t, i, &point, (dv2){casts[i].ray.translation.x, casts[i].ray.translation.y}, &c,
                             (dv2){0, 0}, &hits[i]);
    }
    report("rays into capsules", RANDOM_PAIRS / CHECK_EVERY, &t);
    free(casts), free(hits);
}

/* Turning capsules against every kind, turning too: the rotating batch on both paths; on a sample,
 * the true gap over the step never goes below 0 before CA's t, and CA misses no sampled contact. */
static void turning_capsules_against_sampled_contacts(void **state) {
    const paths *p = *state;
    enum { N = 1u << 13, SAMPLES = 250 };
    const float dt = 0.5f;
    mink_pair *pairs = malloc(N * sizeof *pairs);
    mink_hit *hits = malloc(N * sizeof *hits), *cl = malloc(N * sizeof *cl);
    assert_true(pairs && hits && cl);
    rng_state = 5;
    for (size_t i = 0; i < N; i++) {
        mink_body a = mink_body_capsule(random_capsule(), mink_v2(frand(-6, 6), frand(-6, 6)));
        a.angular_velocity = frand(-6, 6);
        mink_body b = random_other(1 + (int)(i % 4));
        b.angular_velocity = b.type == MINK_SHAPE_CIRCLE ? 0.0f : frand(-3, 3);
        pairs[i] = (mink_pair){a, b};
    }
    assert_int_equal(mink_batch_sweep_rotating(p->scalar, pairs, N, dt, NULL, hits), MINK_OK);
    assert_int_equal(mink_batch_sweep_rotating(p->opencl, pairs, N, dt, NULL, cl), MINK_OK);
    assert_hits_identical_records(cl, hits, N, pairs, sizeof *pairs, "turning capsules: OpenCL and scalar");
    size_t sampled = 0, found = 0;
    for (size_t i = 0; i < N; i += 8) {
        const mink_body *a = &pairs[i].a, *b = &pairs[i].b;
        const mink_hit *h = &hits[i];
        assert_hit_sane(h);
        if (h->flags & MINK_HIT_OVERLAP) continue;
        double tol = 1e-5 * 100;
        double first = first_sampled_contact(a, b, dt, tol, SAMPLES);
        if (first >= 0) {
            sampled++;
            check_not_after(i, h, first);
        }
        if (h->flags & MINK_HIT_CONTACT) {
            found++;
            double g = body_gap(a, b, dt, h->t);
            if (g < -tol) fail_msg("pair %zu: CA's t = %g is past contact (gap %g)", i, (double)h->t, g);
        }
    }
    printf("  turning capsules: %u pairs, %zu sampled: contacts by sampling %zu, by CA %zu\n", (unsigned)N,
           (size_t)(N / 8), sampled, found);
    assert_true(sampled > N / 8 / 8);
    free(pairs), free(hits), free(cl);
}

/* ---- in worlds ------------------------------------------------------------------------------------ */

static void world_ok(mink_status st) {
    if (st != MINK_OK) fprintf(stderr, "%s: %s\n", mink_status_string(st), mink_last_error());
    assert_int_equal(st, MINK_OK);
}

static void assert_near(float got, float want, float tol) {
    if (!(fabsf(got - want) <= tol)) fail_msg("got %a, want %a (within %g)", (double)got, (double)want, (double)tol);
}

/* What a world of capsules answers, one path's: the events and bodies after a step, and queries. */
typedef struct capsule_world_run {
    mink_event events[8];
    size_t nevents;
    mink_vec2 pos[4], vel[4];
    mink_world_hit ray, cast;
    uint32_t over[4];
    size_t starts[2];
} capsule_world_run;

/* A static capsule wall (centres (0, -2) and (0, 2), radius 0.5) at (5, 0); a circle r 0.5 at the
 * origin bouncing into its side, another at (5, 6) into its round end; a dynamic capsule
 * ((-1, 0) to (1, 0), r 0.25) at (20, 0) sliding down onto a box floor whose top is y = -2. Before
 * the step: a ray, a cast of the capsule's shape and an overlap of a point, on the same world. */
static void capsule_world(mink_context *ctx, capsule_world_run *r) {
    mink_world *w = NULL;
    world_ok(mink_world_create(ctx, NULL, &w));
    mink_shape shapes[4] = {capsule_shape(0, -2, 0, 2, 0.5f), circle_shape(0.5f), capsule_shape(-1, 0, 1, 0, 0.25f),
                            box_shape(5.0f, 0.5f)};
    uint32_t ids[4], h[5];
    world_ok(mink_world_add_shapes(w, shapes, 4, ids));
    uint32_t shape[5] = {ids[0], ids[1], ids[1], ids[2], ids[3]};
    mink_vec2 pos[5] = {{5, 0}, {0, 0}, {5, 6}, {20, 0}, {20, -2.5f}};
    mink_vec2 vel[5] = {{0, 0}, {10, 0}, {0, -10}, {0, -10}, {0, 0}};
    float inv_mass[5] = {0, 1, 1, 1, 0};
    uint32_t response[5] = {0, MINK_RESPONSE_BOUNCE, MINK_RESPONSE_BOUNCE, MINK_RESPONSE_SLIDE, 0};
    mink_world_bodies b = {.count = 5, .shape = shape, .position = pos, .velocity = vel, .inv_mass = inv_mass,
                           .response = response};
    world_ok(mink_world_add(w, &b, h));

    mink_ray ray = {{-1, 1}, {20, 0}};
    world_ok(mink_world_cast_rays(w, &ray, 1, NULL, &r->ray));
    mink_hit want = mink_cast_ray(ray, mink_body_capsule(capsule(5, -2, 5, 2, 0.5f), mink_v2(0, 0)));
    assert_memory_equal(&r->ray.hit, &want, sizeof want);
    assert_int_equal(r->ray.body, h[0]);
    assert_near(want.t, 5.5f / 20.0f, 1e-6f); /* the flat side, x = 4.5 */

    mink_world_query cast = {{24, 0}, {0, -10}, ids[2], 0}; /* beside the capsule body, over the floor */
    world_ok(mink_world_cast(w, &cast, 1, NULL, &r->cast));
    want = mink_sweep_bodies(mink_body_capsule(capsule(23, 0, 25, 0, 0.25f), mink_v2(0, -10)),
                             mink_body_aabb(box(15, -3, 25, -2), mink_v2(0, 0)), 1);
    assert_memory_equal(&r->cast.hit, &want, sizeof want);
    assert_int_equal(r->cast.body, h[4]);
    assert_near(want.t, 0.175f, 1e-6f);

    mink_world_query point = {{5, 2.3f}, {0, 0}, MINK_QUERY_POINT, 0}; /* inside the top end's disk */
    world_ok(mink_world_overlap(w, &point, 1, NULL, r->over, 4, r->starts));
    assert_int_equal(r->starts[1], 1);
    assert_int_equal(r->over[0], h[0]);

    world_ok(mink_world_step(w, 1.0f));
    world_ok(mink_world_events(w, r->events, 8, &r->nevents));
    world_ok(mink_world_get(w, h + 1, 4, r->pos, r->vel));
    assert_int_equal(r->nevents, 3);
    for (size_t k = 0; k < r->nevents; k++) {
        const mink_event *e = &r->events[k];
        if (e->body_a == h[1]) { /* the side: x 4 after 4 of 10 units */
            assert_int_equal(e->body_b, h[0]);
            assert_near(e->t, 0.4f, 1e-6f);
            assert_true(e->normal.x == -1.0f && e->normal.y == 0.0f);
            assert_near(e->point.x, 4.5f, 1e-5f), assert_near(e->point.y, 0.0f, 1e-5f);
        } else if (e->body_a == h[2]) { /* the round end: y 3 after 3 units */
            assert_int_equal(e->body_b, h[0]);
            assert_near(e->t, 0.3f, 1e-6f);
            assert_true(e->normal.x == 0.0f && e->normal.y == 1.0f);
            assert_near(e->point.x, 5.0f, 1e-5f), assert_near(e->point.y, 2.5f, 1e-5f);
        } else { /* the capsule on the floor */
            assert_int_equal(e->body_a, h[3]);
            assert_int_equal(e->body_b, h[4]);
            assert_near(e->t, 0.175f, 1e-6f);
            assert_true(e->normal.x == 0.0f && e->normal.y == 1.0f);
        }
    }
    /* Bounced back with all their speed, the rest of the step; the capsule stopped on the floor. */
    assert_true(r->vel[0].x == -10.0f && r->vel[0].y == 0.0f);
    assert_near(r->pos[0].x, -2.0f, 1e-3f);
    assert_true(r->vel[1].x == 0.0f && r->vel[1].y == 10.0f);
    assert_near(r->pos[1].y, 10.0f, 1e-3f);
    assert_true(r->vel[2].x == 0.0f && r->vel[2].y == 0.0f);
    assert_true(r->pos[2].y > -1.75f && r->pos[2].y < -1.749f);
    mink_world_destroy(w);
}

static void capsules_in_worlds(void **state) {
    const paths *p = *state;
    static capsule_world_run run[2];
    capsule_world(p->scalar, &run[0]);
    capsule_world(p->opencl, &run[1]);
    assert_memory_equal(&run[0], &run[1], sizeof run[0]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(end_on_against_a_box),
        cmocka_unit_test(flat_sides_meet_in_the_middle),
        cmocka_unit_test(collinear_segments_meet_end_to_end),
        cmocka_unit_test(touching_and_grazing_are_not_contact),
        cmocka_unit_test(zero_radius_and_zero_length),
        cmocka_unit_test(review_cases),
        cmocka_unit_test(rays_against_capsules),
        cmocka_unit_test(a_turning_capsule_meets_a_box),
        cmocka_unit_test_setup_teardown(random_pairs_against_the_oracle, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(capsules_in_worlds, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(typed_batches_against_the_oracle, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(random_rays_against_the_oracle, paths_setup, paths_teardown),
        cmocka_unit_test_setup_teardown(turning_capsules_against_sampled_contacts, paths_setup, paths_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
