/* core/body.h — bodies of any shape, and the one query that takes any two of them.
 *
 * Valid C99 and OpenCL C, under the rules of core/geom.h. This is the top of the shared math:
 * geom.h (boxes, circles) ← polygon.h (polygons, swept SAT) ← rotating.h (conservative
 * advancement) ← body.h. The kernels and the scalar path include this file.
 */
#ifndef MINK_CORE_BODY_H
#define MINK_CORE_BODY_H

#include "core/capsule.h"
#include "core/rotating.h"
#include "mink/body.h"

/* ---- making bodies ----------------------------------------------------------------------------- */

/* The body of mink_body_zero (mink/body.h). */
MINK_INLINE mink_body mink__body_zero(uint32_t type, mink_vec2 v) {
    mink_body b;
    b.type = type;
    b.velocity = v;
    b.angular_velocity = 0.0f;
    b.shape.polygon = mink_polygon_zero();
    return b;
}

/* The body of mink_body_aabb (mink/body.h). */
MINK_INLINE mink_body mink__body_aabb(mink_aabb box, mink_vec2 v) {
    mink_body b = mink__body_zero(MINK_SHAPE_AABB, v);
    b.shape.aabb = box;
    return b;
}

/* The body of mink_body_circle (mink/body.h). */
MINK_INLINE mink_body mink__body_circle(mink_circle c, mink_vec2 v) {
    mink_body b = mink__body_zero(MINK_SHAPE_CIRCLE, v);
    b.shape.circle = c;
    return b;
}

/* The body of mink_body_polygon (mink/body.h). */
MINK_INLINE mink_body mink__body_polygon(mink_polygon p, mink_vec2 v) {
    mink_body b = mink__body_zero(MINK_SHAPE_POLYGON, v);
    b.shape.polygon = p;
    return b;
}

/* The body of mink_body_capsule (mink/body.h). */
MINK_INLINE mink_body mink__body_capsule(mink_capsule c, mink_vec2 v) {
    mink_body b = mink__body_zero(MINK_SHAPE_CAPSULE, v);
    b.shape.capsule = c;
    return b;
}

/* The body of mink_body_is_valid (mink/body.h). */
MINK_INLINE int mink__body_is_valid(mink_body b) {
    if (!mink__vec2_is_valid(b.velocity) || !mink_isfinite(b.angular_velocity)) return 0;
    if (b.type == MINK_SHAPE_AABB) return mink__aabb_is_valid(b.shape.aabb);
    if (b.type == MINK_SHAPE_CIRCLE) return mink__circle_is_valid(b.shape.circle);
    if (b.type == MINK_SHAPE_POLYGON) return mink__polygon_is_valid(b.shape.polygon);
    if (b.type == MINK_SHAPE_CAPSULE) return mink__capsule_is_valid(b.shape.capsule);
    return 0;
}

/// A capsule of one point as the circle it is (so every query answers it with the circle's bits);
/// any other body as it is.
MINK_INLINE mink_body mink_body_plain(mink_body b) {
    if (b.type == MINK_SHAPE_CAPSULE && mink_capsule_is_circle(b.shape.capsule)) {
        mink_body c = mink__body_circle(mink_capsule_circle(b.shape.capsule), b.velocity);
        c.angular_velocity = b.angular_velocity;
        return c;
    }
    return b;
}

/// Whether the body's shape turns during the step (a turning circle, or a capsule of one point, is
/// the same disk).
MINK_INLINE int mink_body_turns(mink_body b) {
    return b.type != MINK_SHAPE_CIRCLE && b.angular_velocity != 0.0f &&
           !(b.type == MINK_SHAPE_CAPSULE && mink_capsule_is_circle(b.shape.capsule));
}

/* ---- any two bodies without turning: the exact sweeps -------------------------------------- */

/// Any two bodies of boxes, circles and polygons, angular velocities left out, each pair by its
/// exact sweep; a pair in the other order is the mirror (the normal reversed).
MINK_INLINE mink_hit mink_sweep_bodies_polygonal(mink_body a, mink_body b, float dt) {
    mink_vec2 va = a.velocity, vb = b.velocity;
    uint32_t ta = a.type, tb = b.type;
    if (ta == MINK_SHAPE_AABB && tb == MINK_SHAPE_AABB) return mink__sweep_aabb(a.shape.aabb, va, b.shape.aabb, vb, dt);
    if (ta == MINK_SHAPE_CIRCLE && tb == MINK_SHAPE_CIRCLE)
        return mink__sweep_circle(a.shape.circle, va, b.shape.circle, vb, dt);
    if (ta == MINK_SHAPE_POLYGON && tb == MINK_SHAPE_POLYGON)
        return mink__sweep_polygon(a.shape.polygon, va, b.shape.polygon, vb, dt);
    if (ta == MINK_SHAPE_CIRCLE && tb == MINK_SHAPE_AABB)
        return mink__sweep_circle_aabb(a.shape.circle, va, b.shape.aabb, vb, dt);
    if (ta == MINK_SHAPE_AABB && tb == MINK_SHAPE_CIRCLE)
        return mink_hit_mirror(mink__sweep_circle_aabb(b.shape.circle, vb, a.shape.aabb, va, dt));
    if (ta == MINK_SHAPE_POLYGON && tb == MINK_SHAPE_AABB)
        return mink__sweep_polygon_aabb(a.shape.polygon, va, b.shape.aabb, vb, dt);
    if (ta == MINK_SHAPE_AABB && tb == MINK_SHAPE_POLYGON)
        return mink_hit_mirror(mink__sweep_polygon_aabb(b.shape.polygon, vb, a.shape.aabb, va, dt));
    if (ta == MINK_SHAPE_CIRCLE && tb == MINK_SHAPE_POLYGON)
        return mink_sweep_circle_polygon(a.shape.circle, va, b.shape.polygon, vb, dt);
    if (ta == MINK_SHAPE_POLYGON && tb == MINK_SHAPE_CIRCLE)
        return mink__sweep_polygon_circle(a.shape.polygon, va, b.shape.circle, vb, dt);
    return mink_hit_invalid();
}

/// Whether capsule a moving by va comes before b moving by vb in a fixed order of their bits. Two
/// capsules are swept in that order whichever comes first in the call (the other answer mirrored),
/// so a pair gives the same bits both ways round: the sum of one's hull and the other's segment
/// rounds differently with the roles swapped, and a world's dry run must be its step.
MINK_INLINE int mink_capsule_before(mink_capsule a, mink_vec2 va, mink_capsule b, mink_vec2 vb) {
    float ka[7] = {a.center1.x, a.center1.y, a.center2.x, a.center2.y, a.radius, va.x, va.y};
    float kb[7] = {b.center1.x, b.center1.y, b.center2.x, b.center2.y, b.radius, vb.x, vb.y};
    for (int k = 0; k < 7; k++) {
        uint32_t x = mink_float_bits(ka[k] + 0.0f), y = mink_float_bits(kb[k] + 0.0f); /* -0 as +0 */
        if (x != y) return x < y;
    }
    return 0;
}

/// Capsule a against a shape of any kind held as a body's (type and union): the body of every
/// capsule query but capsule–circle's, one hull and one sweep in the code (a kernel's work-items
/// keep every branch's locals: four sweeps inlined made the mixed kernel's frame four hulls larger).
MINK_OUTLINE mink_hit mink_sweep_capsule_any(mink_capsule a, mink_vec2 va, uint32_t type, mink_aabb box,
                                            mink_circle circle, const mink_polygon *polygon, mink_capsule other,
                                            mink_vec2 vb, float dt) {
    if (type == MINK_SHAPE_CAPSULE && mink__capsule_is_valid(other) && mink_capsule_is_circle(other)) {
        type = MINK_SHAPE_CIRCLE;
        circle = mink_capsule_circle(other);
    }
    int valid = type == MINK_SHAPE_AABB      ? mink__aabb_is_valid(box)
                : type == MINK_SHAPE_CIRCLE  ? mink__circle_is_valid(circle)
                : type == MINK_SHAPE_POLYGON ? mink__polygon_is_valid(*polygon)
                : type == MINK_SHAPE_CAPSULE ? mink__capsule_is_valid(other)
                                             : 0;
    if (!mink__capsule_is_valid(a) || !valid || !mink_step_is_valid(va, vb, dt)) return mink_hit_invalid();
    int mirror = type == MINK_SHAPE_CAPSULE && !mink_capsule_is_circle(a) && mink_capsule_before(other, vb, a, va);
    if (mirror) { /* two capsules (neither one point): in their fixed order */
        mink_capsule c = a;
        mink_vec2 v = va;
        a = other, va = vb, other = c, vb = v;
    }
    if (mink_capsule_is_circle(a)) { /* a circle against the other: as the circle's own sweeps */
        mink_circle ca = mink_capsule_circle(a);
        if (type == MINK_SHAPE_AABB) return mink__sweep_circle_aabb(ca, va, box, vb, dt);
        if (type == MINK_SHAPE_CIRCLE) return mink__sweep_circle(ca, va, circle, vb, dt);
        if (type == MINK_SHAPE_POLYGON) return mink_sweep_circle_polygon(ca, va, *polygon, vb, dt);
        return mink_hit_mirror(mink__sweep_capsule_circle(other, vb, ca, va, dt));
    }
    mink_vec2 cb = type == MINK_SHAPE_AABB      ? mink_aabb_center(box)
                   : type == MINK_SHAPE_CIRCLE  ? circle.center
                   : type == MINK_SHAPE_POLYGON ? polygon->position
                                                : mink_capsule_middle(other);
    float rb = type == MINK_SHAPE_AABB      ? mink_aabb_reach(box)
               : type == MINK_SHAPE_CIRCLE  ? circle.radius
               : type == MINK_SHAPE_POLYGON ? polygon->radius
                                            : mink_capsule_reach(other);
    if (mink_clearly_apart(mink_capsule_middle(a), mink_capsule_reach(a), va, cb, rb, vb, dt)) return mink_hit_none();
    mink_hull hb = type == MINK_SHAPE_AABB      ? mink_aabb_hull(box)
                   : type == MINK_SHAPE_CIRCLE  ? mink_point_hull(circle.center, circle.radius)
                   : type == MINK_SHAPE_POLYGON ? mink_polygon_hull(*polygon, mink_v2(0.0f, 0.0f), polygon->angle)
                                                : mink_capsule_hull(other);
    mink_hit h = mink_sweep_capsule_hull(a, va, &hb, vb, dt);
    return mirror ? mink_hit_mirror(h) : h;
}

/// Capsule a against body o, whose angular velocity is left out.
MINK_INLINE mink_hit mink_sweep_capsule_body(mink_capsule a, mink_vec2 va, mink_body o, float dt) {
    return mink_sweep_capsule_any(a, va, o.type, o.shape.aabb, o.shape.circle, &o.shape.polygon, o.shape.capsule,
                                  o.velocity, dt);
}

/// Any two bodies, angular velocities left out: box, circle, polygon and capsule in either order.
MINK_INLINE mink_hit mink_sweep_bodies_linear(mink_body a, mink_body b, float dt) {
    a = mink_body_plain(a);
    b = mink_body_plain(b);
    if (a.type != MINK_SHAPE_CAPSULE && b.type != MINK_SHAPE_CAPSULE) return mink_sweep_bodies_polygonal(a, b, dt);
    int swap = a.type != MINK_SHAPE_CAPSULE; /* the capsule first */
    mink_body c = swap ? b : a, o = swap ? a : b;
    mink_hit h = mink_sweep_capsule_body(c.shape.capsule, c.velocity, o, dt);
    return swap ? mink_hit_mirror(h) : h;
}

/* ---- turning bodies: conservative advancement ------------------------------------------------ */

/// The body as conservative advancement moves it over a step of dt, into *out.
MINK_INLINE void mink_body_mover_of(const mink_body *b, float dt, mink_mover *m) {
    m->move = mink_v2(b->velocity.x * dt, b->velocity.y * dt);
    m->spin = b->angular_velocity * dt;
    float angle = 0.0f;
    if (b->type == MINK_SHAPE_AABB) {
        mink_aabb box = b->shape.aabb;
        m->center = mink_v2((box.min.x + box.max.x) * 0.5f, (box.min.y + box.max.y) * 0.5f);
        mink_vec2 hext = mink_v2(box.max.x - m->center.x, box.max.y - m->center.y);
        mink_aabb box0;
        box0.min = mink_v2(-hext.x, -hext.y);
        box0.max = hext;
        m->hull = mink_aabb_hull(box0);
        m->reach = mink_length(hext);
    } else if (b->type == MINK_SHAPE_POLYGON) {
        const mink_polygon *p = &b->shape.polygon;
        for (uint32_t i = 0; i < MINK_MAX_POLYGON_VERTICES; i++) {
            m->hull.v[i] = p->vertices[i];
            m->hull.n[i] = p->normals[i];
        }
        for (uint32_t i = MINK_MAX_POLYGON_VERTICES; i < MINK_MAX_HULL_VERTICES; i++)
            m->hull.v[i] = m->hull.n[i] = mink_v2(0.0f, 0.0f);
        m->hull.count = m->hull.axes = p->count;
        m->hull.radius = 0.0f;
        m->center = p->position;
        angle = p->angle;
        m->reach = p->radius;
    } else if (b->type == MINK_SHAPE_CAPSULE) { /* its segment about its middle, rounded */
        mink_capsule c = b->shape.capsule;
        m->center = mink_capsule_middle(c);
        mink_capsule about = c;
        about.center1 = mink_v2(c.center1.x - m->center.x, c.center1.y - m->center.y);
        about.center2 = mink_v2(c.center2.x - m->center.x, c.center2.y - m->center.y);
        m->hull = mink_capsule_hull(about);
        m->reach = mink_maxf(mink_length(about.center1), mink_length(about.center2));
    } else { /* a circle: one vertex, rounded; turning changes nothing */
        m->hull = mink_point_hull(mink_v2(0.0f, 0.0f), b->shape.circle.radius);
        m->center = b->shape.circle.center;
        m->spin = 0.0f;
        m->reach = 0.0f;
    }
    mink_mover_set_angle(m, angle);
}

/// The body as conservative advancement moves it over a step of dt.
MINK_INLINE mink_mover mink_body_mover(mink_body b, float dt) {
    mink_mover m;
    mink_body_mover_of(&b, dt, &m);
    return m;
}

/// Whether mover a comes before b in an order read from their bits (centre, move, angle, spin,
/// reach, radius, vertex count, vertices). Conservative advancement rounds differently in the two
/// orders of a pair (at sizes near 2^66 and up they answered differently), so a pair is advanced
/// in this order and mirrored when it was named the other way round: one answer, whatever the
/// order. Two movers that tie in every bit are the same shape in the same motion.
MINK_INLINE int mink_mover_before(const mink_mover *a, const mink_mover *b) {
    float ka[8] = {a->center.x, a->center.y, a->move.x, a->move.y, a->angle, a->spin, a->reach, a->hull.radius};
    float kb[8] = {b->center.x, b->center.y, b->move.x, b->move.y, b->angle, b->spin, b->reach, b->hull.radius};
    for (int k = 0; k < 8; k++) {
        uint32_t x = mink_float_bits(ka[k]), y = mink_float_bits(kb[k]);
        if (x != y) return x < y;
    }
    if (a->hull.count != b->hull.count) return a->hull.count < b->hull.count;
    for (uint32_t k = 0; k < a->hull.count; k++) {
        uint32_t ax = mink_float_bits(a->hull.v[k].x), bx = mink_float_bits(b->hull.v[k].x);
        uint32_t ay = mink_float_bits(a->hull.v[k].y), by = mink_float_bits(b->hull.v[k].y);
        if (ax != bx) return ax < bx;
        if (ay != by) return ay < by;
    }
    return 0;
}

/* The body of mink_sweep_rotating (mink/body.h), on the bodies in place: passed down by value,
 * the two 164-byte bodies were copied at each call, and each copy's reads waited on its stores. */
MINK_INLINE mink_hit mink__sweep_rotating_of(const mink_body *a_in, const mink_body *b_in, float dt,
                                            mink_rotating_desc desc, uint32_t *iterations) {
    uint32_t used = 0;
    mink_hit h = mink_hit_invalid();
    int swapped = 0; /* the pair advanced as (b, a): mink_mover_before */
    mink_body plain_a, plain_b; /* a capsule of one point, as its circle (mink_body_plain) */
    const mink_body *a = a_in, *b = b_in;
    if (a->type == MINK_SHAPE_CAPSULE) plain_a = mink_body_plain(*a), a = &plain_a;
    if (b->type == MINK_SHAPE_CAPSULE) plain_b = mink_body_plain(*b), b = &plain_b;
    if (mink__body_is_valid(*a) && mink__body_is_valid(*b) && mink_isfinite(dt) && dt >= 0.0f &&
        mink_isfinite(desc.target) && desc.target >= 0.0f) {
        mink_mover m0, m1;
        mink_body_mover_of(a, dt, &m0);
        mink_body_mover_of(b, dt, &m1);
        swapped = mink_mover_before(&m1, &m0);
        const mink_mover *ma = swapped ? &m1 : &m0, *mb = swapped ? &m0 : &m1;
        int angles_ok = mink_absf(ma->angle) + mink_absf(ma->spin) <= MINK_MAX_ANGLE &&
                        mink_absf(mb->angle) + mink_absf(mb->spin) <= MINK_MAX_ANGLE;
        float size = ((ma->reach + ma->hull.radius) + mb->reach) + mb->hull.radius;
        float target = desc.target > 0.0f ? desc.target : size * 0.0009765625f;
        uint32_t cap = desc.max_iterations > 0u ? desc.max_iterations : MINK_ROTATING_DEFAULT_ITERATIONS;
        if (!angles_ok || !mink_isfinite(size) || !mink__vec2_is_valid(ma->move) || !mink__vec2_is_valid(mb->move)) {
            h = mink_hit_invalid();
        } else {
            /* Disks about the centres that never meet: no contact and no overlap, and no GJK.
             * Disks apart at t = 0 that meet later: the shapes are apart until then, so the
             * advance starts there, without an overlap test. */
            float start = 0.0f;
            int near = mink_movers_start(ma, mb, target, &start);
            mink_vec2 axis = mink_v2(mb->center.x - ma->center.x, mb->center.y - ma->center.y);
            mink_simplex simplex;
            simplex.count = 0u;
            if (!near || (start > 0.0f && !(target > 0.0f))) {
                h = mink_hit_none();
            } else if (start > 0.0f) {
                axis = mink_movers_offset(ma, mb, start);
                float room = mink_movers_gap(ma, mb, start, axis, &simplex, &axis);
                h = mink_advance(ma, mb, target, cap, start, room, axis, &simplex, &used);
            } else {
                /* Shapes apart at t = 0 by GJK's bound need no overlap test: the bound starts the
                 * advance. The test places the shapes where they are, so apart by more than those
                 * coordinates round by, not only the pair's size. */
                float room = mink_movers_gap(ma, mb, 0.0f, axis, &simplex, &axis);
                float far = mink_maxf(mink_maxf(mink_absf(ma->center.x), mink_absf(ma->center.y)),
                                      mink_maxf(mink_absf(mb->center.x), mink_absf(mb->center.y)));
                mink_hit still = mink_hit_none();
                if (!(room > far * 1.52587891e-5f)) {
                    mink_body sa = swapped ? *b : *a, sb = swapped ? *a : *b;
                    sa.velocity = sb.velocity = mink_v2(0.0f, 0.0f);
                    still = mink_sweep_bodies_linear(sa, sb, 0.0f);
                }
                if (still.flags != 0u)
                    h = still; /* overlapping at t = 0 (or invalid) */
                else if (!(target > 0.0f))
                    h = mink_hit_none(); /* two points: no interior ever meets */
                else
                    h = mink_advance(ma, mb, target, cap, 0.0f, room, axis, &simplex, &used);
            }
        }
    }
    if (iterations) *iterations = used;
    return swapped ? mink_hit_mirror(h) : h;
}

/* The body of mink_sweep_rotating (mink/body.h). */
MINK_INLINE mink_hit mink__sweep_rotating(mink_body a, mink_body b, float dt, mink_rotating_desc desc,
                                         uint32_t *iterations) {
    return mink__sweep_rotating_of(&a, &b, dt, desc, iterations);
}

/* The body of mink_sweep_bodies (mink/body.h), on the bodies in place. */
MINK_INLINE mink_hit mink__sweep_bodies_of(const mink_body *a, const mink_body *b, float dt) {
    if (!mink_isfinite(a->angular_velocity) || !mink_isfinite(b->angular_velocity)) return mink_hit_invalid();
    if (mink_body_turns(*a) || mink_body_turns(*b)) {
        mink_rotating_desc defaults;
        defaults.target = 0.0f;
        defaults.max_iterations = 0u;
        return mink__sweep_rotating_of(a, b, dt, defaults, 0);
    }
    return mink_sweep_bodies_linear(*a, *b, dt);
}

/* The body of mink_sweep_bodies (mink/body.h). */
MINK_INLINE mink_hit mink__sweep_bodies(mink_body a, mink_body b, float dt) { return mink__sweep_bodies_of(&a, &b, dt); }

/* ---- one record, one hit: the queries of the batch kinds' table (core/kinds.h) ---------------- */
MINK_INLINE mink_hit mink_sweep_aabb_record(mink_aabb_pair p, float dt) {
    return mink__sweep_aabb(p.a, p.va, p.b, p.vb, dt);
}
MINK_INLINE mink_hit mink_sweep_circle_record(mink_circle_pair p, float dt) {
    return mink__sweep_circle(p.a, p.va, p.b, p.vb, dt);
}
MINK_INLINE mink_hit mink_sweep_circle_aabb_record(mink_circle_aabb_pair p, float dt) {
    return mink__sweep_circle_aabb(p.a, p.va, p.b, p.vb, dt);
}
MINK_INLINE mink_hit mink_sweep_polygon_record(mink_polygon_pair p, float dt) {
    return mink__sweep_polygon(p.a, p.va, p.b, p.vb, dt);
}
MINK_INLINE mink_hit mink_sweep_polygon_aabb_record(mink_polygon_aabb_pair p, float dt) {
    return mink__sweep_polygon_aabb(p.a, p.va, p.b, p.vb, dt);
}
MINK_INLINE mink_hit mink_sweep_polygon_circle_record(mink_polygon_circle_pair p, float dt) {
    return mink__sweep_polygon_circle(p.a, p.va, p.b, p.vb, dt);
}
MINK_INLINE mink_hit mink_sweep_capsule_record(mink_capsule_pair p, float dt) {
    return mink_sweep_capsule_body(p.a, p.va, mink__body_capsule(p.b, p.vb), dt);
}
MINK_INLINE mink_hit mink_sweep_capsule_circle_record(mink_capsule_circle_pair p, float dt) {
    return mink__sweep_capsule_circle(p.a, p.va, p.b, p.vb, dt);
}
/// Whether a and b are boxes and circles, neither turning (nor with an angular velocity that is
/// not finite): a pair mink_sweep_plain_pair answers.
MINK_INLINE int mink_pair_is_plain(const mink_body *a, const mink_body *b) {
    return (a->type == MINK_SHAPE_AABB || a->type == MINK_SHAPE_CIRCLE) &&
           (b->type == MINK_SHAPE_AABB || b->type == MINK_SHAPE_CIRCLE) && mink_isfinite(a->angular_velocity) &&
           mink_isfinite(b->angular_velocity) && !mink_body_turns(*a) && !mink_body_turns(*b);
}

/// A plain pair (mink_pair_is_plain) by the query mink_sweep_bodies_polygonal calls, and its
/// mirror, on the shapes in place: mink__sweep_bodies' answer. Passed down by value, the two
/// 164-byte bodies were copied three times, and each copy's reads waited on its stores.
MINK_INLINE mink_hit mink_sweep_plain_pair(const mink_body *a, const mink_body *b, float dt) {
    if (a->type == MINK_SHAPE_AABB && b->type == MINK_SHAPE_AABB)
        return mink__sweep_aabb(a->shape.aabb, a->velocity, b->shape.aabb, b->velocity, dt);
    if (a->type == MINK_SHAPE_CIRCLE && b->type == MINK_SHAPE_CIRCLE)
        return mink__sweep_circle(a->shape.circle, a->velocity, b->shape.circle, b->velocity, dt);
    if (a->type == MINK_SHAPE_CIRCLE)
        return mink__sweep_circle_aabb(a->shape.circle, a->velocity, b->shape.aabb, b->velocity, dt);
    return mink_hit_mirror(mink__sweep_circle_aabb(b->shape.circle, b->velocity, a->shape.aabb, a->velocity, dt));
}

MINK_INLINE mink_hit mink_sweep_pair_record(mink_pair p, float dt) {
    return mink_pair_is_plain(&p.a, &p.b) ? mink_sweep_plain_pair(&p.a, &p.b, dt) : mink__sweep_bodies(p.a, p.b, dt);
}
MINK_INLINE mink_hit mink_sweep_rotating_record(mink_pair p, float dt, mink_rotating_desc desc) {
    return mink__sweep_rotating(p.a, p.b, dt, desc, 0);
}

/// The query of mink_cast_ray (mink/body.h): the ray's origin as a box of no size moving by the
/// translation over a step of 1, against the body standing still. dt is the batch's, unused.
MINK_INLINE mink_hit mink_cast_ray_record(mink_ray_cast c, float dt) {
    (void)dt;
    mink_aabb point;
    point.min = point.max = c.ray.origin;
    mink_body b = c.body;
    b.velocity = mink_v2(0.0f, 0.0f);
    b.angular_velocity = 0.0f;
    return mink_sweep_bodies_linear(mink__body_aabb(point, c.ray.translation), b, 1.0f);
}

#endif /* MINK_CORE_BODY_H */
