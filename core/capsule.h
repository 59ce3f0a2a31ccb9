/* core/capsule.h — capsules: the shape, the Minkowski difference of its segment with a hull, and
 * the exact sweeps against every other shape.
 *
 * Valid C99 and OpenCL C, under the rules of core/geom.h. A capsule is its segment's hull (two
 * vertices, its normal the one axis) rounded by its radius. Capsule a and a shape b (a hull
 * rounded by rb: 0 for boxes and polygons) overlap when the origin lies within ra + rb of
 * K = b ⊕ −(a's segment), b's hull summed with the reversed segment: a convex polygon with at most
 * two corners more than b. So a sweep is a circle of radius ra + rb at the origin, moving as a
 * moves against b, swept against K standing still (mink_sweep_circle_hull, the circle–polygon
 * sweep, exact: the faces' slabs, then the corners' disks in closed form). Only the point needs
 * the shapes themselves: where they meet at t (mink_capsule_point).
 */
#ifndef MINK_CORE_CAPSULE_H
#define MINK_CORE_CAPSULE_H

#include "core/polygon.h"
#include "mink/capsule.h"

/* The body of mink_capsule_is_valid (mink/capsule.h). */
MINK_INLINE int mink__capsule_is_valid(mink_capsule c) {
    return mink__vec2_is_valid(c.center1) & mink__vec2_is_valid(c.center2) & mink_finite(c.radius) &
           (c.radius >= 0.0f);
}

/// Whether the capsule is a circle (its centres equal): then it is swept as one.
MINK_INLINE int mink_capsule_is_circle(mink_capsule c) {
    return c.center1.x == c.center2.x && c.center1.y == c.center2.y;
}

MINK_INLINE mink_circle mink_capsule_circle(mink_capsule c) {
    mink_circle k;
    k.center = c.center1;
    k.radius = c.radius;
    return k;
}

/// The outward normal of an edge along e, in a hull whose corners run counter-clockwise.
MINK_INLINE mink_vec2 mink_edge_normal(mink_vec2 e) { return mink_normalize_or_left(mink_v2(e.y, 0.0f - e.x)); }

/// The capsule's segment as a hull: two vertices, the faces either side of the segment, its normal
/// the one axis (the other side is the same axis), rounded by the radius.
MINK_INLINE mink_hull mink_capsule_hull(mink_capsule c) {
    mink_hull h = mink_point_hull(c.center1, c.radius);
    if (mink_capsule_is_circle(c)) return h;
    mink_vec2 n = mink_edge_normal(mink_v2(c.center2.x - c.center1.x, c.center2.y - c.center1.y));
    h.v[1] = c.center2;
    h.n[0] = n;
    h.n[1] = mink_v2(0.0f - n.x, 0.0f - n.y);
    h.count = 2u;
    h.axes = 1u;
    return h;
}

/// Appends corner v, whose edge to the next corner has normal n, to hull k; a corner equal to the
/// one before replaces its edge (an edge of length 0, as a box of no size has, would read as a
/// flat face where the rounded shape has a corner's disk).
MINK_INLINE void mink_hull_append(mink_hull *k, mink_vec2 v, mink_vec2 n) {
    uint32_t c = k->count;
    if (c > 0u && k->v[c - 1u].x == v.x && k->v[c - 1u].y == v.y) {
        k->n[c - 1u] = n;
        return;
    }
    if (c == MINK_MAX_HULL_VERTICES) return; /* never: the callers make at most that many */
    k->v[c] = v;
    k->n[c] = n;
    k->count = c + 1u;
}

/// Appends to k the two corners of the segment that points c[0 .. n) span along direction d (the
/// ends of a line of points), with the normals of the segment's two faces.
MINK_INLINE void mink_hull_append_span(mink_hull *k, const mink_vec2 *c, uint32_t n, mink_vec2 d) {
    uint32_t lo = 0u, hi = 0u;
    for (uint32_t i = 1u; i < n; i++) {
        lo = mink_dot(c[i], d) < mink_dot(c[lo], d) ? i : lo;
        hi = mink_dot(c[i], d) > mink_dot(c[hi], d) ? i : hi;
    }
    mink_vec2 along = mink_v2(c[hi].x - c[lo].x, c[hi].y - c[lo].y);
    mink_hull_append(k, c[lo], mink_edge_normal(along));
    mink_hull_append(k, c[hi], mink_edge_normal(mink_v2(0.0f - along.x, 0.0f - along.y)));
}

/// K = hull b ⊕ {−a1, −a2}: each corner of b less a1 ("stays") or less a2 ("moves": by
/// e = a1 − a2), counter-clockwise, at most b's corners + 2. Across e (along m, e turned a quarter
/// left) b has a lowest and a highest corner, or two (an edge along e); counter-clockwise from the
/// lowest to the highest, b's side faces along e and moves, the other side stays. A single lowest
/// corner is both, stays then moves, joined by a new edge along e; a single highest corner moves
/// then stays. Chosen by where the corners lie, not by the signs of normals across e: rounding
/// cannot make more than the two turns. b's own normals are kept; the new edges get e's. Radius 0
/// (the caller sets it).
MINK_INLINE mink_hull mink_hull_minus_segment(const mink_hull *b, mink_vec2 a1, mink_vec2 a2) {
    mink_vec2 e = mink_v2(a1.x - a2.x, a1.y - a2.y), m = mink_v2(0.0f - e.y, e.x);
    mink_hull k = mink_point_hull(mink_v2(0.0f, 0.0f), 0.0f);
    k.count = 0u;
    uint32_t n = b->count;
    float lo = MINK_INF, hi = -MINK_INF;
    for (uint32_t j = 0u; j < n; j++) {
        lo = mink_minf(lo, mink_dot(b->v[j], m));
        hi = mink_maxf(hi, mink_dot(b->v[j], m));
    }
    mink_vec2 c[2u * MINK_MAX_POLYGON_VERTICES];
    for (uint32_t j = 0u; j < n; j++) {
        c[2u * j] = mink_v2(b->v[j].x - a1.x, b->v[j].y - a1.y);
        c[2u * j + 1u] = mink_v2(b->v[j].x - a2.x, b->v[j].y - a2.y);
    }
    if (n < 3u || !(lo < hi)) {
        /* A point or a segment: K is the parallelogram its ends span with e, or, on one line,
         * the segment between the extreme corners. */
        mink_vec2 pq = n == 2u ? mink_v2(b->v[1].x - b->v[0].x, b->v[1].y - b->v[0].y) : e;
        float turn = n == 2u ? mink_cross(pq, e) : 0.0f;
        /* Parallel to rounding (a relative 2^-20): one line, or the sliver between would have no
         * face across its ends, and a point beyond them would read as inside. */
        if (!(mink_absf(turn) > mink_length(pq) * mink_length(e) * 9.53674316e-7f) || !(lo < hi)) {
            mink_hull_append_span(&k, c, 2u * n, mink_dot(pq, pq) > 0.0f ? pq : e);
        } else { /* p, q, q moved, p moved turn left when e lies left of pq; else the other way round */
            uint32_t order[4] = {0u, 2u, 3u, 1u};
            if (turn < 0.0f) order[1] = 1u, order[3] = 2u;
            for (uint32_t i = 0u; i < 4u; i++) {
                mink_vec2 from = c[order[i]], to = c[order[(i + 1u) & 3u]];
                mink_hull_append(&k, from, mink_edge_normal(mink_v2(to.x - from.x, to.y - from.y)));
            }
        }
    } else {
        /* The lowest and the highest corner by index (the first to hold the least and the most
         * value), each with its neighbour when that holds the same value at another place (an
         * edge along e): exactly two turns, however the projections of a thin polygon round. */
        uint32_t l1 = 0u, h1 = 0u;
        for (uint32_t j = 1u; j < n; j++) {
            l1 = mink_dot(b->v[j], m) < mink_dot(b->v[l1], m) ? j : l1;
            h1 = mink_dot(b->v[j], m) > mink_dot(b->v[h1], m) ? j : h1;
        }
        uint32_t l2 = l1, h2 = h1, ln = (l1 + 1u) % n, lp = (l1 + n - 1u) % n, hn = (h1 + 1u) % n, hp = (h1 + n - 1u) % n;
#define MINK_SAME_PLACE(i, j) (b->v[i].x == b->v[j].x && b->v[i].y == b->v[j].y)
        if (mink_dot(b->v[ln], m) == lo && !MINK_SAME_PLACE(ln, l1)) l2 = ln;
        else if (mink_dot(b->v[lp], m) == lo && !MINK_SAME_PLACE(lp, l1)) l1 = lp;
        if (mink_dot(b->v[hn], m) == hi && !MINK_SAME_PLACE(hn, h1)) h2 = hn;
        else if (mink_dot(b->v[hp], m) == hi && !MINK_SAME_PLACE(hp, h1)) h1 = hp;
#undef MINK_SAME_PLACE
        mink_vec2 ne = mink_edge_normal(e), back = mink_v2(0.0f - ne.x, 0.0f - ne.y);
        uint32_t moving = 0u; /* from the highest counter-clockwise the side that stays, from the lowest the side that moves */
        for (uint32_t s = 1u; s <= n; s++) {
            uint32_t j = (h2 + s) % n;
            if (j == l1 && l1 == l2) { /* stays, then a new edge along e */
                mink_hull_append(&k, c[2u * j], ne);
                mink_hull_append(&k, c[2u * j + 1u], b->n[j]);
                moving = 1u;
            } else if (j == h1 && h1 == h2) { /* moves, then a new edge along −e */
                mink_hull_append(&k, c[2u * j + 1u], back);
                mink_hull_append(&k, c[2u * j], b->n[j]);
                moving = 0u;
            } else {
                moving = j == l2 ? 1u : j == h2 ? 0u : moving; /* the second of an edge along ±e */
                mink_hull_append(&k, c[2u * j + moving], b->n[j]);
            }
        }
    }
    if (k.count > 1u && k.v[k.count - 1u].x == k.v[0].x && k.v[k.count - 1u].y == k.v[0].y) k.count--;
    k.axes = k.count == 2u ? 1u : k.count; /* a segment's two faces share one axis */
    return k;
}

/// Where capsule a (moved by da) and hull b (moved by db, rounded by its radius) meet, given the
/// normal n (from b towards a): each core moved out to its surface along n, then
/// mink_hull_meet_point: the point where a vertex or a corner's disk touches, the middle of the
/// span two parallel faces share (a segment within 1/4096 of its length of lying flat counts),
/// the middle of the penetration when they overlap.
MINK_INLINE mink_vec2 mink_capsule_point(mink_capsule a, mink_vec2 da, const mink_hull *b, mink_vec2 db, mink_vec2 n) {
    mink_hull ha = mink_capsule_hull(a);
    float ra = a.radius, rb = b->radius;
    ha = mink_hull_offset(ha, mink_v2(da.x - n.x * ra, da.y - n.y * ra));
    mink_hull hb = mink_hull_offset(*b, mink_v2(db.x + n.x * rb, db.y + n.y * rb));
    /* Segments lying flat: each one's length, as a polygon's depth, says how flat counts as flat. */
    float flat_a = mink_length(mink_v2(a.center2.x - a.center1.x, a.center2.y - a.center1.y));
    float flat_b = b->count == 2u ? mink_length(mink_v2(b->v[1].x - b->v[0].x, b->v[1].y - b->v[0].y)) : 0.0f;
    return mink_hull_meet_point_flat(&ha, &hb, n, flat_a, flat_b);
}

/// Swept test: capsule a (not a circle) against hull b rounded by b->radius, neither turning.
MINK_INLINE mink_hit mink_sweep_capsule_hull(mink_capsule a, mink_vec2 va, const mink_hull *b, mink_vec2 vb, float dt) {
    mink_hull k = mink_hull_minus_segment(b, a.center1, a.center2);
    mink_circle origin;
    origin.center = mink_v2(0.0f, 0.0f);
    origin.radius = a.radius + b->radius;
    mink_circle corner; /* K of one corner (b less a1 and less a2 rounded to one place): a disk */
    corner.center = k.v[0];
    corner.radius = 0.0f;
    mink_hit h = k.count == 1u ? mink__sweep_circle(origin, va, corner, vb, dt) : mink_sweep_circle_hull(origin, va, &k, vb, dt);
    mink_vec2 d = mink_v2((va.x - vb.x) * dt, (va.y - vb.y) * dt);
    if ((h.flags & MINK_HIT_CONTACT) && k.count == 2u && !mink_isfinite(h.t_exit) && (d.x != 0.0f || d.y != 0.0f)) {
        /* Moving along K's line, its one slab never ends: it leaves through the far end's disk.
         * Grazing, the slab may say touch where rounding has the line miss both disks: it leaves
         * as it touches (never before, geom.h's rule). */
        float exit = h.t, t0, t1;
        int inside;
        for (uint32_t i = 0; i < 2u; i++)
            if (mink_circle_roots(mink_v2(0.0f - k.v[i].x, 0.0f - k.v[i].y), d, origin.radius, &t0, &t1, &inside))
                exit = mink_maxf(exit, t1);
        h.t_exit = exit;
    }
    if ((h.flags & MINK_HIT_CONTACT) && !(h.flags & MINK_HIT_INVALID)) {
        float st = dt * h.t;
        h.point = mink_capsule_point(a, mink_v2(va.x * st, va.y * st), b, mink_v2(vb.x * st, vb.y * st), h.normal);
        h = mink_hit_checked(h);
    }
    return h;
}

/// The disk about a capsule's middle that holds it.
MINK_INLINE float mink_capsule_reach(mink_capsule c) {
    float hx = (c.center2.x - c.center1.x) * 0.5f, hy = (c.center2.y - c.center1.y) * 0.5f;
    return mink_length(mink_v2(hx, hy)) + c.radius;
}
MINK_INLINE mink_vec2 mink_capsule_middle(mink_capsule c) {
    return mink_v2((c.center1.x + c.center2.x) * 0.5f, (c.center1.y + c.center2.y) * 0.5f);
}

/* The body of mink_sweep_capsule_circle (mink/capsule.h); the others are mink_sweep_capsule_body's
 * (core/body.h), which this one serves when a circle meets a capsule. */
MINK_INLINE mink_hit mink__sweep_capsule_circle(mink_capsule a, mink_vec2 va, mink_circle b, mink_vec2 vb, float dt) {
    if (!mink__capsule_is_valid(a) || !mink__circle_is_valid(b) || !mink_step_is_valid(va, vb, dt))
        return mink_hit_invalid();
    if (mink_capsule_is_circle(a)) return mink__sweep_circle(mink_capsule_circle(a), va, b, vb, dt);
    if (mink_clearly_apart(mink_capsule_middle(a), mink_capsule_reach(a), va, b.center, b.radius, vb, dt))
        return mink_hit_none();
    mink_hull hb = mink_point_hull(b.center, b.radius);
    return mink_sweep_capsule_hull(a, va, &hb, vb, dt);
}

#endif /* MINK_CORE_CAPSULE_H */
