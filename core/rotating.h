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

/// The mover's hull at time t, into *h: its count, axes and radius, and its first `count`
/// vertices and normals (written in place rather than returned: the advance's loop copies no
/// hull, but where SAT finds two cores meeting).
MINK_INLINE void mink_mover_place(const mink_mover *m, float t, mink_hull *h) {
    float s, c;
    mink_sincosf(m->angle + m->spin * t, &s, &c);
    mink_vec2 at = mink_v2(m->center.x + m->move.x * t, m->center.y + m->move.y * t);
    h->count = m->hull.count;
    h->axes = m->hull.axes;
    h->radius = m->hull.radius;
    for (uint32_t i = 0; i < h->count; i++) {
        mink_vec2 v = mink_rotate(m->hull.v[i], s, c);
        h->v[i] = mink_v2(at.x + v.x, at.y + v.y);
        h->n[i] = mink_rotate(m->hull.n[i], s, c);
    }
}

/// The point of segment p0–p1 nearest to q (p0 == p1 is fine).
MINK_INLINE mink_vec2 mink_segment_closest(mink_vec2 p0, mink_vec2 p1, mink_vec2 q) {
    mink_vec2 e = mink_v2(p1.x - p0.x, p1.y - p0.y);
    float ee = mink_dot(e, e);
    float u = ee > 0.0f ? mink_dot(mink_v2(q.x - p0.x, q.y - p0.y), e) / ee : 0.0f;
    u = mink_minf(mink_maxf(u, 0.0f), 1.0f);
    return mink_v2(p0.x + e.x * u, p0.y + e.y * u);
}

/// The point of b's edge j nearest to a's vertex i, and their squared distance, as the search
/// below computes it (a hull of one vertex has one edge of length 0).
MINK_INLINE float mink_vertex_edge_d2(const mink_hull *a, uint32_t i, const mink_hull *b, uint32_t j, mink_vec2 *q) {
    *q = mink_segment_closest(b->v[j], b->v[j + 1u < b->count ? j + 1u : 0u], a->v[i]);
    mink_vec2 g = mink_v2(a->v[i].x - q->x, a->v[i].y - q->y);
    return mink_dot(g, g);
}

/// A gap beyond which a vertex–edge pair is never the nearest: for points scaled below 1, a pair
/// whose points lie more than this apart along a unit axis (as projected) has a computed squared
/// distance above `bound`, a square the search computed, so it is not computed at all. Below 1
/// every rounding of the projections and of the distance is absolute, about 2^-21; the margin,
/// 2^-16, is far above it, so the search picks the pair, and the bits, it would pick computing
/// every one. A NaN bound rules nothing out.
MINK_INLINE float mink_vertex_edge_cutoff(float bound) {
    return mink_sqrtf(bound) + 1.52587891e-5f;
}

/// The nearest pair, first in order, of a's vertices to b's edges (a's vertex i, b's edge j, for
/// i, then j), and of b's vertices to a's edges after them: into *best, *pa, *pb, as a strict <
/// over every pair in that order would leave them. ka_i and kb_j are the vertices' projections
/// on a unit axis, so that min(kb_j, kb_j+1) − ka_i bounds the distance from vertex i to edge j
/// from below; pairs whose bound exceeds `cutoff` (mink_vertex_edge_cutoff) are skipped (disjoint
/// cores: most of 2·n·m).
MINK_INLINE void mink_vertex_edge_closest(const mink_hull *a, const float *ka, const mink_hull *b, const float *kb,
                                          int swap, float cutoff, float *best, mink_vec2 *pa, mink_vec2 *pb) {
    float near[MINK_MAX_HULL_VERTICES]; /* each edge of b's least projection */
    float lo = kb[0];
    for (uint32_t j = 0; j < b->count; j++) {
        near[j] = mink_minf(kb[j], kb[j + 1u < b->count ? j + 1u : 0u]);
        lo = mink_minf(lo, kb[j]);
    }
    for (uint32_t i = 0; i < a->count; i++) {
        if (lo - ka[i] > cutoff) continue;
        for (uint32_t j = 0; j < b->count; j++) {
            if (near[j] - ka[i] > cutoff) continue;
            mink_vec2 q;
            float d2 = mink_vertex_edge_d2(a, i, b, j, &q);
            if (d2 < *best) {
                *best = d2;
                *pa = swap ? q : a->v[i];
                *pb = swap ? a->v[i] : q;
            }
        }
    }
}

/// A square of some vertex–edge distance between a and b, small where the cores are near: a's
/// vertex farthest along the unit axis u against b's two edges at its vertex least along u, and
/// the other way round.
MINK_INLINE float mink_vertex_edge_bound(const mink_hull *a, const float *ka, const mink_hull *b, const float *kb) {
    uint32_t ia = 0, ib = 0;
    for (uint32_t i = 1; i < a->count; i++) ia = ka[i] > ka[ia] ? i : ia;
    for (uint32_t j = 1; j < b->count; j++) ib = kb[j] < kb[ib] ? j : ib;
    mink_vec2 q;
    float u = mink_vertex_edge_d2(a, ia, b, ib, &q);
    u = mink_minf(u, mink_vertex_edge_d2(a, ia, b, ib > 0u ? ib - 1u : b->count - 1u, &q));
    u = mink_minf(u, mink_vertex_edge_d2(b, ib, a, ia, &q));
    return mink_minf(u, mink_vertex_edge_d2(b, ib, a, ia > 0u ? ia - 1u : a->count - 1u, &q));
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

/// Moves two hulls' vertices in place to about a's first vertex (*ref) and scales them by one power
/// of two, 2^-e (returned), so that every coordinate lies below 1: no square of a difference
/// overflows or underflows. Radii and normals are kept.
MINK_INLINE int mink_hulls_scale(mink_hull *a, mink_hull *b, mink_vec2 *ref) {
    mink_vec2 r = a->v[0];
    float m = 0.0f;
    for (uint32_t i = 0; i < a->count; i++)
        m = mink_maxf(m, mink_maxf(mink_absf(a->v[i].x - r.x), mink_absf(a->v[i].y - r.y)));
    for (uint32_t i = 0; i < b->count; i++)
        m = mink_maxf(m, mink_maxf(mink_absf(b->v[i].x - r.x), mink_absf(b->v[i].y - r.y)));
    int e = m > 0.0f ? mink_exponent(m) : 0;
    for (uint32_t i = 0; i < a->count; i++)
        a->v[i] = mink_v2(mink_scale(a->v[i].x - r.x, -e), mink_scale(a->v[i].y - r.y, -e));
    for (uint32_t i = 0; i < b->count; i++)
        b->v[i] = mink_v2(mink_scale(b->v[i].x - r.x, -e), mink_scale(b->v[i].y - r.y, -e));
    *ref = r;
    return e;
}

/// The squared distance between two disjoint cores (scaled by mink_hulls_scale; one vertex or
/// more each) and its points, by vertex–edge pairs both ways (for disjoint convex cores the
/// nearest pair always has a vertex on one side). With `prune`, the projections on the unit axis
/// u rule out unread every pair that cannot be nearest (most of the 2·n·m); the answer and its
/// bits are those of prune 0. A vertex that is not finite (a placed point past FLT_MAX), or a
/// coordinate the scaling left at or above 1, turns the pruning off: its bounds would not hold.
MINK_INLINE float mink_hulls_nearest(const mink_hull *a, const mink_hull *b, mink_vec2 u, int prune, mink_vec2 *qa,
                                     mink_vec2 *qb) {
    float ka[MINK_MAX_HULL_VERTICES], kb[MINK_MAX_HULL_VERTICES];
    int sane = 1; /* every projection finite and below 2 (each point below 1 a side, u unit) */
    for (uint32_t i = 0; i < a->count; i++) {
        ka[i] = mink_dot(a->v[i], u);
        sane &= mink_absf(ka[i]) < 2.0f;
    }
    for (uint32_t j = 0; j < b->count; j++) {
        kb[j] = mink_dot(b->v[j], u);
        sane &= mink_absf(kb[j]) < 2.0f;
    }
    float cutoff = prune && sane ? mink_vertex_edge_cutoff(mink_vertex_edge_bound(a, ka, b, kb)) : MINK_INF;
    float best = MINK_INF;
    *qa = a->v[0];
    *qb = b->v[0];
    mink_vertex_edge_closest(a, ka, b, kb, 0, cutoff, &best, qa, qb);
    /* b's vertices against a's edges: the same bound with the axis turned round */
    for (uint32_t i = 0; i < a->count; i++) ka[i] = 0.0f - ka[i];
    for (uint32_t j = 0; j < b->count; j++) kb[j] = 0.0f - kb[j];
    mink_vertex_edge_closest(b, kb, a, ka, 1, cutoff, &best, qa, qb);
    return best;
}

/// Whether the cores of two hulls (scaled by mink_hulls_scale) touch or overlap, by SAT over
/// every axis: no axis shows them apart. *dir: the axis of greatest separation (from a towards
/// b), the one of least overlap when they meet. Two points have no axis and never meet.
MINK_INLINE int mink_hulls_meet(const mink_hull *a, const mink_hull *b, mink_vec2 *dir) {
    float sep = -MINK_INF;
    *dir = mink_v2(-1.0f, 0.0f);
    for (uint32_t k = 0; k < a->axes + b->axes; k++) mink_core_axis(a, b, k < a->axes ? a->n[k] : b->n[k - a->axes], &sep, dir);
    /* A segment (a capsule's core) also separates along itself: two segments on one line, or a
     * point on its line beyond an end, are apart though no normal says so. */
    if (a->count == 2u) mink_core_axis(a, b, mink_v2(0.0f - a->n[0].y, a->n[0].x), &sep, dir);
    if (b->count == 2u) mink_core_axis(a, b, mink_v2(0.0f - b->n[0].y, b->n[0].x), &sep, dir);
    return a->axes + b->axes > 0u && !(sep > 0.0f);
}

/// Whether the unit axis n shows the cores (scaled by mink_hulls_scale) apart: all of b beyond
/// all of a along it by more than 2^-20, far more than the projections round by.
MINK_INLINE int mink_hulls_apart_along(const mink_hull *a, const mink_hull *b, mink_vec2 n) {
    float alo, ahi, blo, bhi;
    mink_hull_project(a, n, &alo, &ahi);
    mink_hull_project(b, n, &blo, &bhi);
    return blo - ahi > 9.53674316e-7f;
}

/// The distance between the cores of two hulls (their vertices' convex hulls; radii left out),
/// the closest points *pa, *pb, and in *axis the unit direction from a's towards b's (when the
/// cores touch or overlap, the distance is 0 and the axis the one of greatest separation). The
/// work is done on the hulls scaled in place by mink_hulls_scale (their radii are kept). `hint`,
/// any direction from a towards b (the last advance's axis), only makes the search faster.
///
/// The nearest vertex–edge pair comes first; when the direction between its points shows the
/// cores clearly apart, that pair is the answer. Only otherwise is SAT run over every axis (16
/// by 16 projections for two octagons), to tell cores that touch or overlap from cores barely
/// apart: the answer is then what SAT decides, as before the shortcut.
MINK_INLINE float mink_hull_core_distance(mink_hull *ap, mink_hull *bp, mink_vec2 hint, mink_vec2 *pa, mink_vec2 *pb,
                                          mink_vec2 *axis) {
    mink_vec2 ref;
    int e = mink_hulls_scale(ap, bp, &ref);
    const mink_hull *a = ap, *b = bp; /* read only from here */
    mink_vec2 qa, qb;
    float best = mink_hulls_nearest(a, b, mink_normalize_or_left(hint), 1, &qa, &qb);
    /* The direction from the scaled points, before translating back can round the gap away. */
    mink_vec2 n = mink_normalize_or_left(mink_v2(qb.x - qa.x, qb.y - qa.y));
    if (!(best > 0.0f) || !mink_hulls_apart_along(a, b, n)) {
        mink_vec2 dir;
        if (mink_hulls_meet(a, b, &dir)) {
            best = 0.0f; /* the cores touch or overlap: no separating axis */
            /* The points: where they meet across the axis of least overlap (the middle of the
             * features both touch), not each hull's first vertex, which lay inside the other. */
            qa = qb = mink_hull_meet_point(a, b, mink_v2(0.0f - dir.x, 0.0f - dir.y));
        }
        if (!(best > 0.0f)) n = dir;
    }
    *axis = n;
    *pa = mink_v2(mink_scale(qa.x, e) + ref.x, mink_scale(qa.y, e) + ref.y);
    *pb = mink_v2(mink_scale(qb.x, e) + ref.x, mink_scale(qb.y, e) + ref.y);
    return mink_scale(mink_sqrtf(best), e);
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
    mink_vec2 hint = mink_v2(b->center.x - a->center.x, b->center.y - a->center.y);
    for (uint32_t it = 0;; it++) {
        *iterations = it;
        mink_hull ha, hb;
        mink_mover_place(a, t, &ha);
        mink_mover_place(b, t, &hb);
        mink_vec2 pa, pb, axis;
        float core = mink_hull_core_distance(&ha, &hb, hint, &pa, &pb, &axis);
        float g = (core - ha.radius) - hb.radius;
        mink_vec2 n = hint = axis;
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
