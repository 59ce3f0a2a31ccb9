/* core/rotating.h — time of impact for turning shapes by conservative advancement: advances by
 * GJK's bound while the shapes are far apart, by their exact distance near contact.
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
/// faster than |move| + |spin|·reach. `s0` and `c0`: the sine and cosine of `angle`
/// (mink_mover_set_angle), kept because most turns asked for are it: at t = 0, and always for a
/// shape that does not spin.
typedef struct mink_mover {
    mink_hull hull;
    mink_vec2 center, move;
    float angle, spin, reach, s0, c0;
} mink_mover;

/// Sets the mover's angle and the sine and cosine kept with it.
MINK_INLINE void mink_mover_set_angle(mink_mover *m, float angle) {
    m->angle = angle;
    m->s0 = 0.0f, m->c0 = 1.0f; /* mink_sincosf's for either zero */
    if (angle != 0.0f) mink_sincosf(angle, &m->s0, &m->c0);
}

/// The sine and cosine of the mover's angle at time t, angle + spin·t: the kept ones where that
/// sum is the angle (the same bits: mink_sincosf gives +0 and 1 for either zero).
MINK_INLINE void mink_mover_turn(const mink_mover *m, float t, float *s, float *c) {
    float x = m->angle + m->spin * t;
    if (x == m->angle) {
        *s = m->s0, *c = m->c0;
    } else {
        mink_sincosf(x, s, c);
    }
}

/// The mover's hull at time t with its centre at `at`, into *h: its count, axes and radius, and
/// its first `count` vertices and normals (written in place rather than returned: the advance's
/// loop copies no hull, but where SAT finds two cores meeting).
MINK_INLINE void mink_mover_place(const mink_mover *m, float t, mink_vec2 at, mink_hull *h) {
    float s, c;
    mink_mover_turn(m, t, &s, &c);
    h->count = m->hull.count;
    h->axes = m->hull.axes;
    h->radius = m->hull.radius;
    for (uint32_t i = 0; i < h->count; i++) {
        mink_vec2 v = mink_rotate(m->hull.v[i], s, c);
        h->v[i] = mink_v2(at.x + v.x, at.y + v.y);
        h->n[i] = mink_rotate(m->hull.n[i], s, c);
    }
}

/// Which vertex of hull h (about its centre), turned by the angle whose sine and cosine are s and
/// c, lies farthest along d (the first of ties): d is turned back instead, so no vertex is turned.
MINK_INLINE uint32_t mink_turned_farthest(const mink_hull *h, float s, float c, mink_vec2 d) {
    mink_vec2 l = mink_v2(c * d.x + s * d.y, c * d.y - s * d.x);
    uint32_t k = 0;
    float best = mink_dot(h->v[0], l);
    for (uint32_t i = 1; i < h->count; i++) {
        float p = mink_dot(h->v[i], l);
        k = p > best ? i : k;
        best = mink_maxf(best, p);
    }
    return k;
}

/// GJK's simplex, kept from one call of mink_movers_gap to the next (from one advance to the
/// next, where the shapes have moved a little): one or two points of the cores' difference, each
/// named by its vertex of a and of b. `count` 0: none yet.
typedef struct mink_simplex {
    uint32_t a[2], b[2], count;
} mink_simplex;

/// A point of the cores' difference and the vertices it is made of.
typedef struct mink_simplex_point {
    mink_vec2 p;
    uint32_t a, b;
} mink_simplex_point;

/// b's centre from a's at time t, from their differences: exact to the pair's size, however far
/// from the origin the pair is.
MINK_INLINE mink_vec2 mink_movers_offset(const mink_mover *a, const mink_mover *b, float t) {
    mink_vec2 dc = mink_v2(b->center.x - a->center.x, b->center.y - a->center.y);
    mink_vec2 dm = mink_v2(b->move.x - a->move.x, b->move.y - a->move.y);
    return mink_v2(dc.x + dm.x * t, dc.y + dm.y * t);
}

/// Two movers at time t for mink_movers_gap: each one's turn, and b's centre from a's.
typedef struct mink_mover_pair {
    const mink_mover *a, *b;
    float sa, ca, sb, cb;
    mink_vec2 offset;
} mink_mover_pair;

/// The point of the cores' difference (b's core less a's) made of a's vertex i and b's vertex j.
MINK_INLINE mink_simplex_point mink_movers_point(const mink_mover_pair *p, uint32_t i, uint32_t j) {
    mink_vec2 pa = mink_rotate(p->a->hull.v[i], p->sa, p->ca), pb = mink_rotate(p->b->hull.v[j], p->sb, p->cb);
    mink_simplex_point q;
    q.p = mink_v2((p->offset.x + pb.x) - pa.x, (p->offset.y + pb.y) - pa.y);
    q.a = i, q.b = j;
    return q;
}

/// The point of the cores' difference farthest along d: b's vertex farthest along d less a's
/// farthest along −d.
MINK_INLINE mink_simplex_point mink_movers_support(const mink_mover_pair *p, mink_vec2 d) {
    uint32_t i = mink_turned_farthest(&p->a->hull, p->sa, p->ca, mink_v2(0.0f - d.x, 0.0f - d.y));
    return mink_movers_point(p, i, mink_turned_farthest(&p->b->hull, p->sb, p->cb, d));
}

/// The point of segment p–q nearest to the origin, and in *keep which ends it needs: 1 for p, 2
/// for q, 3 for both (p == q is fine).
MINK_INLINE mink_vec2 mink_segment_nearest_origin(mink_vec2 p, mink_vec2 q, int *keep) {
    mink_vec2 e = mink_v2(q.x - p.x, q.y - p.y);
    float ee = mink_dot(e, e);
    float u = ee > 0.0f ? (0.0f - mink_dot(p, e)) / ee : 0.0f;
    *keep = u <= 0.0f ? 1 : (u >= 1.0f ? 2 : 3);
    u = mink_minf(mink_maxf(u, 0.0f), 1.0f);
    return mink_v2(p.x + e.x * u, p.y + e.y * u);
}

/// How far apart two movers' shapes (radii included) lie along a unit axis *axis at time t, less
/// a margin for rounding: a lower bound on their distance, the gap conservative advancement may
/// close at once. The axis is GJK's: the point of the cores' difference nearest the origin,
/// searched from the simplex *simplex the last call left (or, the first time, from `hint`, any
/// direction from a towards b), each support point found by turning the direction rather than the
/// hull, so no hull is placed. Whatever GJK's rounding, the gap is the projections' own along the
/// axis it ends on, which never exceeds the distance of the shapes at t (turned by their angles as
/// rounded to float) by more than the projections round by: about 2^-22 of the pair's size (the
/// largest coordinate of its centres' and its moves' differences, plus both reaches). The margin,
/// 2^-16 of that size, is far above it. Cores that meet, or that lie closer than the margin, give
/// a gap of 0 or less. Sizes outside 2^-40..2^40 (where products of coordinates could underflow or
/// overflow and the margin would not hold), or a NaN size, give −∞ and leave *axis at `hint`; a
/// NaN elsewhere gives a NaN (no advance either way).
MINK_INLINE float mink_movers_gap(const mink_mover *a, const mink_mover *b, float t, mink_vec2 hint,
                                  mink_simplex *simplex, mink_vec2 *axis) {
    mink_mover_pair p;
    p.a = a, p.b = b;
    mink_mover_turn(a, t, &p.sa, &p.ca);
    mink_mover_turn(b, t, &p.sb, &p.cb);
    /* A margin of the pair's size, not of its distance from the origin: far from it, a margin of
     * the coordinates made the advances crawl. */
    mink_vec2 dc = mink_v2(b->center.x - a->center.x, b->center.y - a->center.y);
    mink_vec2 dm = mink_v2(b->move.x - a->move.x, b->move.y - a->move.y);
    p.offset = mink_movers_offset(a, b, t);
    float size = mink_maxf(mink_maxf(mink_absf(dc.x), mink_absf(dc.y)), mink_maxf(mink_absf(dm.x), mink_absf(dm.y)));
    size = (size + a->reach) + b->reach;
    *axis = hint;
    if (!(size >= 9.09494702e-13f && size <= 1.09951163e12f)) return -MINK_INF;
    /* GJK in two dimensions: a simplex of one or two points of the difference (s1, and s2 when
     * `two`), and v, its point nearest the origin. Each round takes the support point towards the
     * origin (w, for the v it stands at) and keeps the nearest of the new edges; it stops when v
     * no longer shrinks or w lies almost as near as v along it. */
    mink_simplex_point s1, s2, w;
    int two = 0, fresh = 0, keep = 1; /* fresh: w is the support point for the v it stands at */
    if (simplex->count == 0u) {
        s1 = mink_movers_support(&p, mink_v2(0.0f - hint.x, 0.0f - hint.y));
    } else {
        s1 = mink_movers_point(&p, simplex->a[0], simplex->b[0]);
    }
    s2 = s1;
    mink_vec2 v = s1.p;
    if (simplex->count == 2u) { /* the last edge, where the shapes now stand */
        s2 = mink_movers_point(&p, simplex->a[1], simplex->b[1]);
        v = mink_segment_nearest_origin(s1.p, s2.p, &keep);
        s1 = keep == 2 ? s2 : s1;
        two = keep == 3;
    }
    w = s1;
    for (int pass = 0; pass < 8; pass++) {
        float vv = mink_dot(v, v);
        w = mink_movers_support(&p, mink_v2(0.0f - v.x, 0.0f - v.y));
        fresh = 1;
        if (!(vv - mink_dot(v, w.p) > vv * 6.10351562e-5f)) break; /* 2^-14 */
        int k1, k2 = 0;
        mink_vec2 n1 = mink_segment_nearest_origin(w.p, s1.p, &k1), n2 = n1;
        if (two) n2 = mink_segment_nearest_origin(w.p, s2.p, &k2);
        int second = two && mink_dot(n2, n2) < mink_dot(n1, n1);
        mink_vec2 n = second ? n2 : n1;
        keep = second ? k2 : k1;
        if (!(mink_dot(n, n) < vv) || keep == 2) break; /* no nearer, or nearest at an old point */
        s2 = second ? s2 : s1; /* the edge kept: w and s1, or w and s2 */
        s1 = w;
        two = keep == 3;
        v = n;
        fresh = 0;
    }
    simplex->a[0] = s1.a, simplex->b[0] = s1.b;
    simplex->a[1] = s2.a, simplex->b[1] = s2.b;
    simplex->count = two ? 2u : 1u;
    /* The support point along v is the one along v's unit axis, but where projections tie within
     * their rounding, which the margin covers: so while v is long. A short one (cores that touch
     * or overlap, or products that underflow) names no direction, and its support point could be
     * any vertex: then the unit axis's own is taken. Long, v's square does not underflow either,
     * so the plain quotient is the unit axis. */
    float vv = mink_dot(v, v), length = mink_sqrtf(vv);
    int long_enough = vv >= size * size * 9.09494702e-13f;
    *axis = long_enough ? mink_v2(v.x / length, v.y / length) : mink_normalize_or_left(v);
    if (!fresh || !long_enough) w = mink_movers_support(&p, mink_v2(0.0f - axis->x, 0.0f - axis->y));
    float gap = (mink_dot(*axis, w.p) - a->hull.radius) - b->hull.radius;
    return gap - size * 1.52587891e-5f;
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
    float lo = MINK_INF; /* kb[0] after the first min, NaN included */
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

/// Where conservative advancement of a and b may start. No point of a shape lies farther from its
/// centre than its reach plus its radius, so the shapes come within `target` of each other no
/// sooner than disks of those radii (a's grown by the target) about the moving centres meet.
/// Those disks are taken as the advance sees the pair, about a's centre (b's from a's by their
/// differences, mink_movers_offset), so the margins are of the pair's size, not of its distance
/// from the origin. Returns 0 when the disks never meet in the step (mink_disks_may_meet): no
/// contact. Else 1, with *t the time they first meet grown by mink_disks_reach's margin: the
/// roots' rounding (a few ulps of t) is far below what that margin takes off the time, so *t is no
/// later than the shapes' first contact. Both answers also need the disks apart at t = 0 where
/// they stand, by a margin of their coordinates, as the overlap test (which places the shapes
/// there) would find the shapes; else the answer is 1 with *t = 0: the overlap test decides and
/// the advance starts at 0. So is it where the roots give no time in (0, 1) (the margin covers the
/// ends; a move too large to scale: advancing from 0 is always right).
MINK_INLINE int mink_movers_start(const mink_mover *a, const mink_mover *b, float target, float *t) {
    mink_circle da, db;
    da.center = a->center, da.radius = (a->reach + a->hull.radius) + target;
    db.center = b->center, db.radius = b->reach + b->hull.radius;
    mink_vec2 still = mink_v2(0.0f, 0.0f);
    *t = 0.0f;
    if (mink_disks_may_meet(da, still, db, still)) return 1; /* near at t = 0 where they stand */
    da.center = still, db.center = mink_movers_offset(a, b, 0.0f);
    mink_vec2 dm = mink_v2(b->move.x - a->move.x, b->move.y - a->move.y);
    if (!mink_disks_may_meet(da, still, db, dm)) return 0;
    float r = mink_disks_reach(da, still, db, dm), t0 = 0.0f, t1 = 0.0f;
    mink_vec2 s = mink_v2(0.0f - db.center.x, 0.0f - db.center.y), d = mink_v2(0.0f - dm.x, 0.0f - dm.y);
    int inside, meets = 0;
    if (mink_isfinite(r) && mink__vec2_is_valid(s) && mink__vec2_is_valid(d)) meets = mink_circle_roots(s, d, r, &t0, &t1, &inside);
    if (meets && !inside && t0 > 0.0f && t0 < 1.0f) *t = t0;
    return 1;
}

/// Conservative advancement of two movers over the step, from `start` (0, where the caller has
/// found them apart, or mink_movers_start's time: the move there counts as an advance). Each round: the distance g between the shapes at t and the unit direction n from
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
///
/// Far from contact an advance takes GJK's bound (mink_movers_gap: no hull placed, no SAT); near
/// it, or where that bound is not to be had, the exact distance decides and answers. `room0`,
/// `axis0` and *simplex are mink_movers_gap's at `start`, from the centres' direction, which the
/// caller has.
MINK_INLINE mink_hit mink_advance(const mink_mover *a, const mink_mover *b, float target, uint32_t max_iterations,
                                  float start, float room0, mink_vec2 axis0, mink_simplex *simplex,
                                  uint32_t *iterations) {
    mink_vec2 dv = mink_v2(a->move.x - b->move.x, a->move.y - b->move.y);
    float spin = mink_absf(a->spin) * a->reach + mink_absf(b->spin) * b->reach;
    float t = start;
    mink_vec2 hint = mink_v2(b->center.x - a->center.x, b->center.y - a->center.y);
    if (start > 0.0f) hint = mink_movers_offset(a, b, start);
    uint32_t first = start > 0.0f ? 1u : 0u;
    for (uint32_t it = first;; it++) {
        *iterations = it;
        mink_vec2 m = axis0;
        float room = -MINK_INF;
        if (it < max_iterations) room = it == first ? room0 : mink_movers_gap(a, b, t, hint, simplex, &m);
        float wm = mink_dot(dv, m) + spin;
        if (room > target && mink_isfinite(room) && mink_isfinite(wm)) {
            if (!(wm > 0.0f)) return mink_hit_none();
            hint = m;
            t = t + (room - target * 0.5f) / wm;
            *iterations = it + 1;
            if (!(t < 1.0f)) return mink_hit_none();
            continue;
        }
        /* Placed about a's centre, as GJK's bound measures them: where they are, the coordinates'
         * rounding (2^-24 of them) passed the target far from the origin, and an advance to the
         * bound's target/2 could find the cores met. */
        mink_hull ha, hb;
        mink_mover_place(a, t, mink_v2(0.0f, 0.0f), &ha);
        mink_mover_place(b, t, mink_movers_offset(a, b, t), &hb);
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
            mink_vec2 at = mink_v2(a->center.x + a->move.x * t, a->center.y + a->move.y * t);
            h.point = mink_v2(at.x + (sa.x + sb.x) * 0.5f, at.y + (sa.y + sb.y) * 0.5f);
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
