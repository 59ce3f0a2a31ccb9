/* tests/fuzz/fuzz_query.c — every single-pair query on fuzzed bodies: the hit invariants of
 * fuzz.h, the mirror rule (swapping a and b reverses the normal), overlap queries agreeing with
 * the sweep at t = 0, a ray cast against b equal to its point's sweep, and on one input in eight
 * the same bits from the OpenCL path.
 *
 * Input: a mode byte (0x80: turning bodies; 0x40: dt 1; 0x38 all set: OpenCL too), a byte for the
 * two shapes (a: its value mod 4, b: a quarter of it, mod 4; capsules came with this byte, and
 * the corpus was given it, keeping each input's shapes), dt, then the bodies. */
#include "fuzz.h"

static void check_overlap(mink_body a, mink_body b) {
    mink_hit h = mink_hit_invalid();
    if (a.type == MINK_SHAPE_AABB && b.type == MINK_SHAPE_AABB) h = mink_overlap_aabb(a.shape.aabb, b.shape.aabb);
    else if (a.type == MINK_SHAPE_CIRCLE && b.type == MINK_SHAPE_CIRCLE)
        h = mink_overlap_circle(a.shape.circle, b.shape.circle);
    else if (a.type == MINK_SHAPE_CIRCLE && b.type == MINK_SHAPE_AABB)
        h = mink_overlap_circle_aabb(a.shape.circle, b.shape.aabb);
    else if (a.type == MINK_SHAPE_POLYGON && b.type == MINK_SHAPE_POLYGON)
        h = mink_overlap_polygon(a.shape.polygon, b.shape.polygon);
    else if (a.type == MINK_SHAPE_POLYGON && b.type == MINK_SHAPE_AABB)
        h = mink_overlap_polygon_aabb(a.shape.polygon, b.shape.aabb);
    else if (a.type == MINK_SHAPE_POLYGON && b.type == MINK_SHAPE_CIRCLE)
        h = mink_overlap_polygon_circle(a.shape.polygon, b.shape.circle);
    else
        return;
    fuzz_check_hit(&h, "overlap");
    FUZZ_CHECK(!(h.flags & MINK_HIT_CONTACT) || (h.flags & MINK_HIT_OVERLAP), "a discrete contact is not an overlap");
    /* A sweep over no time is the overlap query. */
    mink_body sa = a, sb = b;
    sa.velocity = sb.velocity = mink_v2(0.0f, 0.0f);
    mink_hit still = mink_sweep_bodies(sa, sb, 0.0f);
    FUZZ_CHECK((still.flags & (MINK_HIT_OVERLAP | MINK_HIT_INVALID)) == (h.flags & (MINK_HIT_OVERLAP | MINK_HIT_INVALID)),
               "sweep with dt 0 gives flags %#x, the overlap query %#x", (unsigned)still.flags, (unsigned)h.flags);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_in in = fuzz_start(data, size);
    uint8_t mode = fuzz_u8(&in);
    int turning = (mode & 0x80) != 0;
    uint8_t shapes = fuzz_u8(&in);
    float dt = (mode & 0x40) ? 1.0f : fuzz_float(&in);
    mink_pair pair;
    pair.a = fuzz_body(&in, shapes % 4, turning);
    pair.b = fuzz_body(&in, (shapes / 4) % 4, turning);

    mink_hit h = mink_sweep_bodies(pair.a, pair.b, dt);
    fuzz_check_hit(&h, "sweep");
    mink_hit m = mink_sweep_bodies(pair.b, pair.a, dt);
    fuzz_check_hit(&m, "mirrored sweep");
    /* The mirror rule, where both orders stayed within float range (at its edge one order's
     * intermediate may overflow, INVALID, where the other's does not). */
    if (!turning && !((h.flags | m.flags) & MINK_HIT_INVALID)) {
        /* The exact sweeps answer both orders alike, up to the normal's direction. */
        mink_hit back = mink_hit_mirror(m);
        FUZZ_CHECK(h.flags == m.flags && h.t == m.t, "a-b gives flags %#x t %a, b-a %#x t %a", (unsigned)h.flags,
                   (double)h.t, (unsigned)m.flags, (double)m.t);
        /* A swept contact's normal is exactly reversed. An overlap's depth is the same, but
         * its normal may not be: ties go to a fixed direction whichever body comes first
         * ((-1, 0) for concentric circles, -x first for boxes, the first edge for polygons). */
        int ties = (pair.a.type == MINK_SHAPE_POLYGON && pair.b.type == MINK_SHAPE_POLYGON) ||
                   /* the centres meet at t, to float precision: the (-1, 0) rule */
                   (h.normal.x == -1.0f && m.normal.x == -1.0f && h.normal.y == 0.0f && m.normal.y == 0.0f);
        if (h.flags & MINK_HIT_OVERLAP)
            FUZZ_CHECK(h.depth == m.depth, "overlap depth %a, mirrored %a", (double)h.depth, (double)m.depth);
        else
            FUZZ_CHECK(ties || !(h.flags & MINK_HIT_CONTACT) ||
                           (h.normal.x == back.normal.x && h.normal.y == back.normal.y),
                       "the mirrored normal differs");
    }
    if (!turning) check_overlap(pair.a, pair.b);
    mink_rotating_desc desc = {.target = 0.0f, .max_iterations = 0};
    if (turning) {
        uint32_t iterations = 0;
        mink_hit r = mink_sweep_rotating(pair.a, pair.b, dt, desc, &iterations);
        fuzz_check_hit(&r, "rotating");
        FUZZ_CHECK(iterations <= MINK_ROTATING_DEFAULT_ITERATIONS, "%u iterations", (unsigned)iterations);
    }

    /* A ray from the bytes left, against b: a point swept by the definition, b standing still. */
    mink_ray ray;
    ray.origin.x = fuzz_float(&in), ray.origin.y = fuzz_float(&in);
    ray.translation.x = fuzz_float(&in), ray.translation.y = fuzz_float(&in);
    mink_hit cast = mink_cast_ray(ray, pair.b);
    fuzz_check_hit(&cast, "ray cast");
    mink_body point = mink_body_aabb((mink_aabb){ray.origin, ray.origin}, ray.translation), still = pair.b;
    still.velocity = mink_v2(0.0f, 0.0f);
    still.angular_velocity = 0.0f;
    mink_hit swept = mink_sweep_bodies(point, still, 1.0f);
    FUZZ_CHECK(memcmp(&cast, &swept, sizeof cast) == 0, "a ray cast is not its point's sweep");

    /* One input in eight also goes through the OpenCL path: the same bits. */
    if ((mode & 0x38) == 0x38 && isfinite(dt) && dt >= 0.0f) {
        mink_hit got;
        mink_status s = mink_batch_sweep(fuzz_context(1), &pair, 1, dt, &got);
        FUZZ_CHECK(s == MINK_OK, "mink_batch_sweep: %s", mink_last_error());
        FUZZ_CHECK(memcmp(&got, &h, sizeof h) == 0, "OpenCL and scalar differ");
        mink_hit want = mink_sweep_rotating(pair.a, pair.b, dt, desc, NULL);
        s = mink_batch_sweep_rotating(fuzz_context(1), &pair, 1, dt, &desc, &got);
        FUZZ_CHECK(s == MINK_OK, "mink_batch_sweep_rotating: %s", mink_last_error());
        FUZZ_CHECK(memcmp(&got, &want, sizeof want) == 0, "OpenCL and scalar differ (rotating)");
        s = mink_batch_cast_ray(fuzz_context(1), &(mink_ray_cast){ray, pair.b}, 1, &got);
        FUZZ_CHECK(s == MINK_OK, "mink_batch_cast_ray: %s", mink_last_error());
        FUZZ_CHECK(memcmp(&got, &cast, sizeof cast) == 0, "OpenCL and scalar differ (ray cast)");
    }
    return 0;
}
