/* core/rotating.h — time of impact for turning shapes by conservative advancement.
 *
 * Valid C99 and OpenCL C, under the rules of core/geom.h. Every loop has a fixed bound (the vertex
 * count, the iteration cap), so a kernel can never spin.
 */
#ifndef MINK_CORE_ROTATING_H
#define MINK_CORE_ROTATING_H

#include "core/polygon.h"
#include "mink/rotating.h"

/// A shape as conservative advancement moves it: a hull in coordinates about its centre of
/// rotation at angle 0, turned by angle + spin·t and carried to centre + move·t at time t of the
/// step. `reach` bounds how far any point of the core lies from the centre, so no point moves
/// faster than |move| + |spin|·reach.
typedef struct mink_mover {
    mink_hull hull;
    mink_vec2 center, move;
    float angle, spin, reach;
} mink_mover;

MINK_INLINE mink_hull mink_mover_hull(const mink_mover *m, float t) {
    mink_hull h = m->hull;
    float s, c;
    mink_sincosf(m->angle + m->spin * t, &s, &c);
    mink_vec2 at = mink_v2(m->center.x + m->move.x * t, m->center.y + m->move.y * t);
    for (uint32_t i = 0; i < h.count; i++) {
        mink_vec2 v = mink_rotate(m->hull.v[i], s, c);
        h.v[i] = mink_v2(at.x + v.x, at.y + v.y);
        h.n[i] = mink_rotate(m->hull.n[i], s, c);
    }
    return h;
}

/// The point of segment p0–p1 nearest to q (p0 == p1 is fine).
MINK_INLINE mink_vec2 mink_segment_closest(mink_vec2 p0, mink_vec2 p1, mink_vec2 q) {
    mink_vec2 e = mink_v2(p1.x - p0.x, p1.y - p0.y);
    float ee = mink_dot(e, e);
    float u = ee > 0.0f ? mink_dot(mink_v2(q.x - p0.x, q.y - p0.y), e) / ee : 0.0f;
    u = mink_minf(mink_maxf(u, 0.0f), 1.0f);
    return mink_v2(p0.x + e.x * u, p0.y + e.y * u);
}

/// Closest points of a's vertices to b's edges (a hull of one vertex has one edge of length 0).
MINK_INLINE void mink_vertex_edge_closest(const mink_hull *a, const mink_hull *b, int swap, float *best,
                                          mink_vec2 *pa, mink_vec2 *pb) {
    for (uint32_t i = 0; i < a->count; i++) {
        for (uint32_t j = 0; j < b->count; j++) {
            mink_vec2 q = mink_segment_closest(b->v[j], b->v[j + 1 < b->count ? j + 1 : 0], a->v[i]);
            mink_vec2 g = mink_v2(a->v[i].x - q.x, a->v[i].y - q.y);
            float d2 = mink_dot(g, g);
            if (d2 < *best) {
                *best = d2;
                *pa = swap ? q : a->v[i];
                *pb = swap ? a->v[i] : q;
            }
        }
    }
}

/// One axis n of SAT between hulls a and b: how far apart they are along it, either way; the
/// greatest so far in *sep, its direction (from a towards b) in *dir.
MINK_INLINE void mink_core_axis(const mink_hull *a, const mink_hull *b, mink_vec2 n, float *sep, mink_vec2 *dir) {
    float alo, ahi, blo, bhi;
    mink_hull_project(a, n, &alo, &ahi);
    mink_hull_project(b, n, &blo, &bhi);
    /* Both sides of the axis: a box's hull names only two of its four normals. */
    float above = blo - ahi, below = alo - bhi; /* b beyond a along +n, or along −n */
    if (above > *sep) { *sep = above; *dir = n; }
    if (below > *sep) { *sep = below; *dir = mink_v2(-n.x, -n.y); }
}

/// The distance between the cores of two hulls (their vertices' convex hulls; radii left out),
/// the closest points *pa, *pb, and in *axis the unit direction from a's towards b's (when the
/// cores touch or overlap, the distance is 0 and the axis the one of greatest separation). The
/// work is done about a's first vertex and scaled by a power of two, so no square overflows or
/// underflows; for disjoint convex cores the nearest pair always has a vertex on one side, so
/// vertex–edge pairs both ways find it (at most 2·8·8 of them).
MINK_INLINE float mink_hull_core_distance(const mink_hull *a0, const mink_hull *b0, mink_vec2 *pa, mink_vec2 *pb,
                                          mink_vec2 *axis) {
    mink_vec2 ref = a0->v[0];
    float m = 0.0f;
    for (uint32_t i = 0; i < a0->count; i++)
        m = mink_maxf(m, mink_maxf(mink_absf(a0->v[i].x - ref.x), mink_absf(a0->v[i].y - ref.y)));
    for (uint32_t i = 0; i < b0->count; i++)
        m = mink_maxf(m, mink_maxf(mink_absf(b0->v[i].x - ref.x), mink_absf(b0->v[i].y - ref.y)));
    int e = m > 0.0f ? mink_exponent(m) : 0;
    mink_hull a = *a0, b = *b0;
    for (uint32_t i = 0; i < a.count; i++)
        a.v[i] = mink_v2(mink_ldexpf(a.v[i].x - ref.x, -e), mink_ldexpf(a.v[i].y - ref.y, -e));
    for (uint32_t i = 0; i < b.count; i++)
        b.v[i] = mink_v2(mink_ldexpf(b.v[i].x - ref.x, -e), mink_ldexpf(b.v[i].y - ref.y, -e));

    float sep = -MINK_INF;
    mink_vec2 dir = mink_v2(-1.0f, 0.0f);
    for (uint32_t k = 0; k < a.axes + b.axes; k++) mink_core_axis(&a, &b, k < a.axes ? a.n[k] : b.n[k - a.axes], &sep, &dir);
    /* A segment (a capsule's core) also separates along itself: two segments on one line, or a
     * point on its line beyond an end, are apart though no normal says so. */
    if (a.count == 2u) mink_core_axis(&a, &b, mink_v2(0.0f - a.n[0].y, a.n[0].x), &sep, &dir);
    if (b.count == 2u) mink_core_axis(&a, &b, mink_v2(0.0f - b.n[0].y, b.n[0].x), &sep, &dir);
    float best = MINK_INF;
    mink_vec2 qa = a.v[0], qb = b.v[0];
    if (a.axes + b.axes > 0u && !(sep > 0.0f)) {
        best = 0.0f; /* the cores touch or overlap: no separating axis */
        /* The points: where they meet across the axis of least overlap (the middle of the
         * features both touch), not each hull's first vertex, which lay inside the other. */
        qa = qb = mink_hull_meet_point(&a, &b, mink_v2(0.0f - dir.x, 0.0f - dir.y));
    } else {
        mink_vertex_edge_closest(&a, &b, 0, &best, &qa, &qb);
        mink_vertex_edge_closest(&b, &a, 1, &best, &qa, &qb);
    }
    /* The direction from the scaled points, before translating back can round the gap away. */
    *axis = best > 0.0f ? mink_normalize_or_left(mink_v2(qb.x - qa.x, qb.y - qa.y)) : dir;
    *pa = mink_v2(mink_ldexpf(qa.x, e) + ref.x, mink_ldexpf(qa.y, e) + ref.y);
    *pb = mink_v2(mink_ldexpf(qb.x, e) + ref.x, mink_ldexpf(qb.y, e) + ref.y);
    return mink_ldexpf(mink_sqrtf(best), e);
}

/// Conservative advancement of two movers over the step, from t = 0 (where the caller has found
/// them apart). Each round: the distance g between the shapes at t and the unit direction n from
/// a towards b; a bound on how fast any pair of points can close g,
///     w = (move_a − move_b)·n + |spin_a|·reach_a + |spin_b|·reach_b   (per step),
/// since the gap between the shapes' projections on the fixed axis n can shrink no faster than w
/// and that gap is never more than g. So:
///   - w <= 0: the projections never close for the rest of the step: no contact (this also turns
///     away shapes that touch or nearly touch while moving apart);
///   - g <= target: contact at t, which is no later than the true first contact;
///   - otherwise advance by (g − target/2)/w, which leaves at least target/2 between them, so
///     rounding never carries t past a contact; t >= 1 means no contact in the step.
/// After max_iterations advances the safe time so far is returned with CONTACT|NOT_CONVERGED.
/// The normal is −n (from b towards a), the point midway between the two surfaces' nearest points.
MINK_INLINE mink_hit mink_advance(const mink_mover *a, const mink_mover *b, float target,
                                  uint32_t max_iterations, uint32_t *iterations) {
    mink_vec2 dv = mink_v2(a->move.x - b->move.x, a->move.y - b->move.y);
    float spin = mink_absf(a->spin) * a->reach + mink_absf(b->spin) * b->reach;
    float t = 0.0f;
    for (uint32_t it = 0;; it++) {
        *iterations = it;
        mink_hull ha = mink_mover_hull(a, t), hb = mink_mover_hull(b, t);
        mink_vec2 pa, pb, axis;
        float core = mink_hull_core_distance(&ha, &hb, &pa, &pb, &axis);
        float g = (core - ha.radius) - hb.radius;
        mink_vec2 n = axis;
        float w = mink_dot(dv, n) + spin;
        if (!mink_isfinite(g) || !mink__vec2_is_valid(n) || !mink_isfinite(w)) return mink_hit_invalid();
        if (!(w > 0.0f)) return mink_hit_none();
        if (g <= target || it == max_iterations) {
            mink_hit h = mink_hit_none();
            h.t = t + 0.0f;
            h.normal = mink_v2(0.0f - n.x, 0.0f - n.y);
            mink_vec2 sa = mink_v2(pa.x + n.x * ha.radius, pa.y + n.y * ha.radius);
            mink_vec2 sb = mink_v2(pb.x - n.x * hb.radius, pb.y - n.y * hb.radius);
            h.point = mink_v2((sa.x + sb.x) * 0.5f, (sa.y + sb.y) * 0.5f);
            h.t_exit = MINK_INF; /* not computed by conservative advancement */
            h.flags = MINK_HIT_CONTACT | (g <= target ? 0u : (uint32_t)MINK_HIT_NOT_CONVERGED);
            return mink_hit_checked(h);
        }
        t = t + (g - target * 0.5f) / w;
        *iterations = it + 1;
        if (!(t < 1.0f)) return mink_hit_none();
    }
}

#endif /* MINK_CORE_ROTATING_H */
