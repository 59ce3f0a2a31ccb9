/* core/polygon.h — convex polygons: the shape, its checks, and swept SAT for moving shapes.
 *
 * Valid C99 and OpenCL C, under the rules of core/geom.h (float only, no contraction, selects
 * instead of fminf/fmaxf). Rotation needs sine and cosine; the libraries' sinf and OpenCL's sin
 * are not the same function, so mink_sincosf below is built from + − × alone and gives the same
 * bits on both paths.
 */
#ifndef MINK_CORE_POLYGON_H
#define MINK_CORE_POLYGON_H

#include "core/circle.h"
#include "mink/polygon.h"


/* ---- sine and cosine, the same bits everywhere ----------------------------------------------- */

/// sin and cos of x, |x| <= MINK_MAX_ANGLE, to about one ulp. x is reduced to r in about
/// [−π/4, π/4] by the nearest multiple k of π/2, with π/2 split in three (Cody and Waite): the
/// first two parts have 8 significant bits, so k times them is exact for |k| < 2^16, and so is
/// each subtraction but the last. Taylor polynomials of degree 9 and 10 leave a truncation error
/// under 2e-9 on that range. sin 0 = 0 and cos 0 = 1 exactly, so an angle of 0 turns nothing.
MINK_INLINE void mink_sincosf(float x, float *s, float *c) {
    /* Clamped for mink_floor_small: no angle in range comes near the bounds. Past them, as for
     * any angle past MINK_MAX_ANGLE or a NaN, the answer means nothing: callers check angles
     * first, or drop what they compute from one. */
    float k = mink_floor_small(mink_minf(mink_maxf(x * 0.636619772f + 0.5f, -4194304.0f), 4194304.0f));
    float r = ((x - k * 1.5703125f) - k * 4.84466552734375e-4f) - k * -6.397578431e-7f;
    float q = k - 4.0f * mink_floor_small(k * 0.25f); /* quadrant 0..3, exact */
    float r2 = r * r;
    float sn = r + r * r2 * (-1.66666667e-1f + r2 * (8.33333333e-3f + r2 * (-1.98412698e-4f + r2 * 2.75573192e-6f)));
    float cs = 1.0f + r2 * (-0.5f + r2 * (4.16666667e-2f + r2 * (-1.38888889e-3f +
                                        r2 * (2.48015873e-5f + r2 * -2.75573192e-7f))));
    *s = q == 0.0f ? sn : (q == 1.0f ? cs : (q == 2.0f ? -sn : -cs));
    *c = q == 0.0f ? cs : (q == 1.0f ? -sn : (q == 2.0f ? -cs : sn));
}

/// v turned by the angle whose sine and cosine are s and c.
MINK_INLINE mink_vec2 mink_rotate(mink_vec2 v, float s, float c) {
    return mink_v2(c * v.x - s * v.y, s * v.x + c * v.y);
}

/* ---- checking and making polygons ------------------------------------------------------------ */

/// Which half-turn a direction lies in: 0 for angles in [0, π), 1 for [π, 2π).
MINK_INLINE int mink_half_turn(mink_vec2 v) { return ((v.y > 0.0f) | ((v.y == 0.0f) & (v.x > 0.0f))) ^ 1; }

/// v·2^k, each coordinate rounded once (mink_scale).
MINK_INLINE mink_vec2 mink_scale2(mink_vec2 v, int k) { return mink_v2(mink_scale(v.x, k), mink_scale(v.y, k)); }

/// The walk of mink_polygon_shape_check round a polygon's corners: the points scaled by 2^k, the
/// first of them and the first edge, the edge before the corner walked to and the counts so far.
typedef struct mink_shape_walk {
    mink_vec2 s0, si, first, prev;
    int k, prev_half, repeated, left, right, windings, windings_cw;
} mink_shape_walk;

/// The largest coordinate so far, m, with point p's counted when `on`.
MINK_ALWAYS_INLINE float mink_corner_extent(float m, mink_vec2 p, int on) {
    float c = mink_maxf(m, mink_maxf(mink_absf(p.x), mink_absf(p.y)));
    return on ? c : m;
}

/// The walk at corner 1, from the polygon's points v and their largest coordinate m.
MINK_ALWAYS_INLINE mink_shape_walk mink_shape_walk_start(const mink_vec2 *v, float m) {
    mink_shape_walk w;
    /* By 2^−e, exactly (mink_scale: two products for a large e, where 2^−e alone could overflow). */
    w.k = m > 0.0f ? -mink_exponent(m) : 0;
    w.s0 = mink_scale2(v[0], w.k), w.si = mink_scale2(v[1], w.k);
    w.first = mink_v2(w.si.x - w.s0.x, w.si.y - w.s0.y), w.prev = w.first;
    w.prev_half = mink_half_turn(w.first), w.repeated = (w.first.x == 0.0f) & (w.first.y == 0.0f);
    w.left = w.right = w.windings = w.windings_cw = 0;
    return w;
}

/// Corner i of n (1 <= i <= n), counted when `on`: the edge leaving it (to `next`, the next point
/// scaled, for i + 1 < n; the first point after it; the first edge again at i = n, closing the
/// polygon), its turn from the edge before and the half-turns it passes. Each edge once, no
/// division (an index modulo n) and no early return, so a repeated point answers REPEATED
/// wherever it is, as the first zero edge would.
MINK_ALWAYS_INLINE void mink_shape_walk_corner(mink_shape_walk *w, uint32_t i, uint32_t n, mink_vec2 next, int on) {
    mink_vec2 sj = i + 1u < n ? next : w->s0;
    mink_vec2 edge = i < n ? mink_v2(sj.x - w->si.x, sj.y - w->si.y) : w->first;
    w->si = sj;
    w->repeated |= on & (edge.x == 0.0f) & (edge.y == 0.0f);
    float turn = mink_cross(w->prev, edge);
    int edge_half = mink_half_turn(edge);
    w->left += on & (turn > 0.0f);
    w->right += on & (turn < 0.0f);
    w->windings += on & w->prev_half & (edge_half ^ 1);
    w->windings_cw += on & (w->prev_half ^ 1) & edge_half;
    w->prev = edge;
    w->prev_half = edge_half;
}

/// What the walk round all n corners found (selects, not branches).
MINK_ALWAYS_INLINE mink_polygon_check mink_shape_walk_answer(const mink_shape_walk *w, uint32_t n) {
    int ok = ((uint32_t)w->left == n) & (w->windings == 1), cw = ((uint32_t)w->right == n) & (w->windings_cw == 1);
    mink_polygon_check why = cw ? MINK_POLYGON_CLOCKWISE : MINK_POLYGON_NOT_CONVEX;
    why = ok ? MINK_POLYGON_OK : why;
    return w->repeated ? MINK_POLYGON_REPEATED : why;
}

/// The shape test shared by the constructor and every query: the points (scaled by one power of
/// two, exactly, so the cross products neither overflow nor underflow for sane shapes) turn
/// strictly left at every corner and their edges wind exactly once. Every left turn is less than a
/// half-turn, so the edge direction passes from the lower half-turn to the upper one exactly once
/// per winding: counting those passages counts the windings (a pentagram turns left everywhere
/// and winds twice). n >= 3. Returns MINK_POLYGON_OK, _REPEATED, _CLOCKWISE or _NOT_CONVEX.
MINK_INLINE mink_polygon_check mink_polygon_shape_check(const mink_vec2 *v, uint32_t n) {
    float m = 0.0f;
    for (uint32_t i = 0; i < n; i++) m = mink_corner_extent(m, v[i], 1);
    mink_shape_walk w = mink_shape_walk_start(v, m);
    for (uint32_t i = 1; i <= n; i++)
        mink_shape_walk_corner(&w, i, n, i + 1u < n ? mink_scale2(v[i + 1u], w.k) : w.s0, 1);
    return mink_shape_walk_answer(&w, n);
}

/* Each of a polygon's eight corners, written out: straight code, which a loop over polygons
 * vectorizes (compilers unroll a loop of eight this long only in part). */
#define MINK_EIGHT_CORNERS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7)

/// mink_polygon_shape_check of the first n of the points v (3 <= n <= corners), the same operations
/// on them: the first `corners` corners walked (4 or 8, a constant once inlined), those past n
/// counted as nothing (for polygons checked side by side, host/scalar.c).
MINK_ALWAYS_INLINE mink_polygon_check mink_polygon_shape_check_within(const mink_vec2 *v, uint32_t n,
                                                                      uint32_t corners) {
    float m = 0.0f;
#define MINK_EXTENT_(i) \
    if ((i) < corners) m = mink_corner_extent(m, v[i], (i) < n);
    MINK_EIGHT_CORNERS(MINK_EXTENT_)
#undef MINK_EXTENT_
    mink_shape_walk w = mink_shape_walk_start(v, m);
    /* Corner i + 1, whose next point is v[i + 2] (any point past the last: not used). */
#define MINK_CORNER_(i)                                                                                          \
    if ((i) < corners)                                                                                           \
        mink_shape_walk_corner(&w, (i) + 1u, n, mink_scale2(v[(i) + 2u < corners ? (i) + 2u : corners - 1u], w.k), \
                               (i) + 1u <= n);
    MINK_EIGHT_CORNERS(MINK_CORNER_)
#undef MINK_CORNER_
    return mink_shape_walk_answer(&w, n);
}

/// The checks of mink_polygon_is_valid on a polygon's own fields: the count, position, angle and
/// radius in range.
MINK_ALWAYS_INLINE int mink_polygon_fields_are_valid(mink_polygon p) {
    return (p.count >= 3u) & (p.count <= (uint32_t)MINK_MAX_POLYGON_VERTICES) & mink__vec2_is_valid(p.position) &
           mink_finite(p.angle) & mink_finite(p.radius) & (mink_absf(p.angle) <= MINK_MAX_ANGLE);
}

/// Corner i's point and normal finite.
MINK_ALWAYS_INLINE int mink_polygon_corner_is_finite(const mink_polygon *p, uint32_t i) {
    return mink__vec2_is_valid(p->vertices[i]) & mink__vec2_is_valid(p->normals[i]);
}

/// mink_polygon_is_valid with every check made and the answer their conjunction, so that a loop
/// over polygons vectorizes (host/scalar.c), over the first `corners` corners (4 or 8, a
/// constant once inlined): at least the count, when the count is in range. A count out of range
/// takes a shape test of 3 points, answered invalid.
MINK_ALWAYS_INLINE int mink_polygon_is_valid_within(mink_polygon p, uint32_t corners) {
    int ok = mink_polygon_fields_are_valid(p);
    uint32_t n = ok ? p.count : 3u;
#define MINK_FINITE_(i) \
    if ((i) < corners) ok &= ((i) >= n) | mink_polygon_corner_is_finite(&p, i);
    MINK_EIGHT_CORNERS(MINK_FINITE_)
#undef MINK_FINITE_
    return ok & (mink_polygon_shape_check_within(p.vertices, n, corners) == MINK_POLYGON_OK);
}

/* The body of mink_polygon_is_valid (mink/polygon.h). */
MINK_INLINE int mink__polygon_is_valid(mink_polygon p) {
    if (!mink_polygon_fields_are_valid(p)) return 0;
    int finite = 1; /* one test after the loop, not a branch a point */
    for (uint32_t i = 0; i < p.count; i++) finite &= mink_polygon_corner_is_finite(&p, i);
    return finite && mink_polygon_shape_check(p.vertices, p.count) == MINK_POLYGON_OK;
}

/// All fields 0: what a refused polygon is, and INVALID in any query.
MINK_INLINE mink_polygon mink_polygon_zero(void) {
    mink_polygon p;
    for (uint32_t i = 0; i < MINK_MAX_POLYGON_VERTICES; i++) p.vertices[i] = p.normals[i] = mink_v2(0.0f, 0.0f);
    p.position = mink_v2(0.0f, 0.0f);
    p.angle = p.radius = 0.0f;
    p.count = 0u;
    return p;
}

#ifndef MINK_OPENCL
/* The body of mink_polygon_make (mink/polygon.h). */
MINK_INLINE mink_polygon_check mink__polygon_make(const mink_vec2 *points, uint32_t count,
                                                 mink_vec2 position, float angle, mink_polygon *out) {
    mink_polygon p = mink_polygon_zero();
    *out = p;
    if (count < 3u) return MINK_POLYGON_TOO_FEW;
    if (count > (uint32_t)MINK_MAX_POLYGON_VERTICES) return MINK_POLYGON_TOO_MANY;
    for (uint32_t i = 0; i < count; i++)
        if (!mink__vec2_is_valid(points[i])) return MINK_POLYGON_NOT_FINITE;
    if (!mink__vec2_is_valid(position) || !mink_isfinite(angle)) return MINK_POLYGON_NOT_FINITE;
    if (!(mink_absf(angle) <= MINK_MAX_ANGLE)) return MINK_POLYGON_ANGLE_RANGE;
    for (uint32_t i = 0; i < count; i++)
        for (uint32_t j = i + 1; j < count; j++)
            if (points[i].x == points[j].x && points[i].y == points[j].y) return MINK_POLYGON_REPEATED;
    mink_polygon_check why = mink_polygon_shape_check(points, count);
    if (why != MINK_POLYGON_OK) return why;
    for (uint32_t i = 0; i < count; i++) {
        mink_vec2 a = points[i], b = points[(i + 1) % count];
        p.vertices[i] = a;
        p.normals[i] = mink_normalize_or_left(mink_v2(b.y - a.y, a.x - b.x)); /* right of the edge: outward */
        p.radius = mink_maxf(p.radius, mink_length(a));
    }
    if (!mink_isfinite(p.radius)) return MINK_POLYGON_NOT_FINITE;
    p.position = position;
    p.angle = angle;
    p.count = count;
    *out = p;
    return MINK_POLYGON_OK;
}

/* The body of mink_polygon_check_string (mink/polygon.h). */
MINK_INLINE const char *mink__polygon_check_string(mink_polygon_check why) {
    switch (why) {
    case MINK_POLYGON_OK: return "ok";
    case MINK_POLYGON_TOO_FEW: return "too few points: a polygon needs 3";
    case MINK_POLYGON_TOO_MANY: return "too many points: at most MINK_MAX_POLYGON_VERTICES (8)";
    case MINK_POLYGON_NOT_FINITE: return "a coordinate, the position or the angle is not finite";
    case MINK_POLYGON_ANGLE_RANGE: return "the angle is beyond MINK_MAX_ANGLE radians";
    case MINK_POLYGON_REPEATED: return "two points are the same";
    case MINK_POLYGON_CLOCKWISE: return "the points go clockwise: give them counter-clockwise";
    case MINK_POLYGON_NOT_CONVEX: return "not convex: a reflex or straight corner, or edges winding more than once";
    }
    return "unknown polygon check";
}
#endif

/* ---- hulls: a shape placed in the world ------------------------------------------------------ */

/// A hull holds a polygon, or a polygon summed with a segment (core/capsule.h): two more corners.
#define MINK_MAX_HULL_VERTICES (MINK_MAX_POLYGON_VERTICES + 2)

/// A convex shape in world coordinates: `count` vertices counter-clockwise (1 for a circle's
/// centre, 2 for a capsule's segment), the unit outward normals of the first `axes` edges (the
/// separating axes SAT tries), and a radius that rounds it (0 for polygons and boxes).
typedef struct mink_hull {
    mink_vec2 v[MINK_MAX_HULL_VERTICES];
    mink_vec2 n[MINK_MAX_HULL_VERTICES];
    uint32_t count, axes;
    float radius;
} mink_hull;

/// A polygon's corner v turned by the angle whose sine and cosine are s and c, placed at `at`.
MINK_INLINE mink_vec2 mink_hull_corner(mink_vec2 at, mink_vec2 v, float s, float c) {
    mink_vec2 r = mink_rotate(v, s, c);
    return mink_v2(at.x + r.x, at.y + r.y);
}

/// The polygon turned by `angle` and placed at position + offset.
MINK_INLINE mink_hull mink_polygon_hull(mink_polygon p, mink_vec2 offset, float angle) {
    mink_hull h;
    float s, c;
    mink_sincosf(angle, &s, &c);
    mink_vec2 at = mink_v2(p.position.x + offset.x, p.position.y + offset.y);
    /* Only the polygon's own corners turned (nothing reads a hull past its count). */
    uint32_t n = p.count < (uint32_t)MINK_MAX_POLYGON_VERTICES ? p.count : (uint32_t)MINK_MAX_POLYGON_VERTICES;
    for (uint32_t i = 0; i < n; i++) {
        h.v[i] = mink_hull_corner(at, p.vertices[i], s, c);
        h.n[i] = mink_rotate(p.normals[i], s, c);
    }
    for (uint32_t i = n; i < MINK_MAX_HULL_VERTICES; i++) h.v[i] = h.n[i] = mink_v2(0.0f, 0.0f);
    h.count = h.axes = p.count;
    h.radius = 0.0f;
    return h;
}

/// A box as a hull. SAT needs only its first two face normals, −y and +x (opposite faces share
/// an axis), and projections on them are the box's own coordinates, exactly (x·1 + y·0 = x).
MINK_INLINE mink_hull mink_aabb_hull(mink_aabb b) {
    mink_hull h;
    for (uint32_t i = 0; i < MINK_MAX_HULL_VERTICES; i++) h.v[i] = h.n[i] = mink_v2(0.0f, 0.0f);
    h.v[0] = b.min;
    h.v[1] = mink_v2(b.max.x, b.min.y);
    h.v[2] = b.max;
    h.v[3] = mink_v2(b.min.x, b.max.y);
    h.n[0] = mink_v2(0.0f, -1.0f);
    h.n[1] = mink_v2(1.0f, 0.0f);
    h.n[2] = mink_v2(0.0f, 1.0f);
    h.n[3] = mink_v2(-1.0f, 0.0f);
    h.count = 4u;
    h.axes = 2u;
    h.radius = 0.0f;
    return h;
}

/// A point rounded by r (a circle's centre): one vertex, no axes of its own.
MINK_INLINE mink_hull mink_point_hull(mink_vec2 p, float r) {
    mink_hull h;
    for (uint32_t i = 0; i < MINK_MAX_HULL_VERTICES; i++) h.v[i] = h.n[i] = mink_v2(0.0f, 0.0f);
    h.v[0] = p;
    h.count = 1u;
    h.axes = 0u;
    h.radius = r;
    return h;
}

/// [*lo, *hi] grown to hold p when `on` (a hull's vertices past its count are not on).
MINK_INLINE void mink_extent_add(float *lo, float *hi, float p, int on) {
    float a = mink_minf(*lo, p), b = mink_maxf(*hi, p);
    *lo = on ? a : *lo;
    *hi = on ? b : *hi;
}

/// [*lo, *hi]: the hull's vertices projected on the axis n.
MINK_INLINE void mink_hull_project(const mink_hull *h, mink_vec2 n, float *lo, float *hi) {
    float a = mink_dot(h->v[0], n), b = a;
    for (uint32_t i = 1; i < h->count; i++) mink_extent_add(&a, &b, mink_dot(h->v[i], n), 1);
    *lo = a;
    *hi = b;
}

MINK_INLINE int mink_hull_is_valid(const mink_hull *h) {
    int finite = 1;
    for (uint32_t i = 0; i < h->count; i++) finite &= mink__vec2_is_valid(h->v[i]);
    return finite;
}

MINK_INLINE mink_hull mink_hull_offset(mink_hull h, mink_vec2 d) {
    for (uint32_t i = 0; i < h.count; i++) h.v[i] = mink_v2(h.v[i].x + d.x, h.v[i].y + d.y);
    return h;
}

/// Vertex i of h as mink_hull_offset would leave it, moved by `move` when `moved`, then by `back`
/// when `about`: each step rounded as there, and no hull copied.
MINK_INLINE mink_vec2 mink_vertex_moved(mink_vec2 v, mink_vec2 move, int moved, mink_vec2 back, int about) {
    v = moved ? mink_v2(v.x + move.x, v.y + move.y) : v;
    return about ? mink_v2(v.x + back.x, v.y + back.y) : v;
}
MINK_INLINE mink_vec2 mink_hull_vertex(const mink_hull *h, uint32_t i, mink_vec2 move, int moved, mink_vec2 back,
                                       int about) {
    return mink_vertex_moved(h->v[i], move, moved, back, about);
}

/// mink_hull_meet_point's tolerances: how far from the extreme projection along N a vertex still
/// belongs to each shape's touching feature (a's lowest, b's highest), from the projections about
/// ref; and a few ulps of the coordinates, which were rounded where they lie.
MINK_INLINE void mink_meet_tolerances(float alo, float ahi, float blo, float bhi, mink_vec2 ref, float flat_a,
                                      float flat_b, float *tol_a, float *tol_b) {
    float depth = (ahi - alo) + (bhi - blo), ulps = (mink_absf(ref.x) + mink_absf(ref.y)) * 4.76837158e-7f;
    *tol_a = (depth + flat_a) * 0.000244140625f + ulps;
    *tol_b = (depth + flat_b) * 0.000244140625f + ulps;
}

/// Vertex v of a (about ref) in a's touching feature: [*t0, *t1], its span across N, grown to hold
/// v when `on` and v lies within tol_a of a's lowest projection alo.
MINK_INLINE void mink_meet_span_a(float *t0, float *t1, mink_vec2 v, mink_vec2 N, float alo, float tol_a, int on) {
    mink_extent_add(t0, t1, mink_dot(v, mink_v2(-N.y, N.x)), on & (mink_dot(v, N) <= alo + tol_a));
}
/// The same for b's vertices, within tol_b of its highest projection bhi.
MINK_INLINE void mink_meet_span_b(float *t0, float *t1, mink_vec2 v, mink_vec2 N, float bhi, float tol_b, int on) {
    mink_extent_add(t0, t1, mink_dot(v, mink_v2(-N.y, N.x)), on & (mink_dot(v, N) >= bhi - tol_b));
}

/// The meeting point from a's lowest and b's highest projections along N and the features' spans
/// across it, about ref.
MINK_INLINE mink_vec2 mink_meet_point_at(mink_vec2 ref, mink_vec2 N, float alo, float bhi, float at0, float at1,
                                         float bt0, float bt1) {
    mink_vec2 T = mink_v2(-N.y, N.x);
    float along = (alo + bhi) * 0.5f;
    float across = (mink_maxf(at0, bt0) + mink_minf(at1, bt1)) * 0.5f;
    return mink_v2(ref.x + (N.x * along + T.x * across), ref.y + (N.y * along + T.y * across));
}

/// Where a (moving down the normal N, which points from b towards a) and b meet: along N, halfway
/// between a's lowest and b's highest projection (the same number when they touch; the middle of
/// the penetration when they overlap); across N, the middle of the span both touching features
/// share. A feature is every vertex within 1/4096 of the shapes' depth along N of the extreme one,
/// (and a few ulps of where they lie), so a vertex gives a point and two parallel edges the middle
/// of the segment they share. All of it about a's first vertex: projections of whole coordinates
/// far from the origin (|x| near 1800) rounded by more than that tolerance, split a face's
/// vertices, and put the point between the shapes. `flat_a` and `flat_b` widen each shape's own
/// tolerance: a capsule's segment has no depth along N when it lies flat against the other shape,
/// and its length decides instead (its own: a short segment 10 degrees off a long one's side
/// touches it at one end, not across its length).
/// The hulls are read in place, each moved first by da and db when `moved` (as mink_hull_offset
/// would move them): no hull is copied.
MINK_INLINE mink_vec2 mink_hull_meet_point_moved(const mink_hull *a0, mink_vec2 da, const mink_hull *b0, mink_vec2 db,
                                                 int moved, mink_vec2 N, float flat_a, float flat_b) {
    mink_vec2 ref = mink_hull_vertex(a0, 0u, da, moved, mink_v2(0.0f, 0.0f), 0);
    mink_vec2 back = mink_v2(-ref.x, -ref.y); /* every vertex about ref, as mink_hull_offset rounds it */
    float alo = mink_dot(mink_hull_vertex(a0, 0u, da, moved, back, 1), N), ahi = alo;
    float blo = mink_dot(mink_hull_vertex(b0, 0u, db, moved, back, 1), N), bhi = blo;
    for (uint32_t i = 1; i < a0->count; i++)
        mink_extent_add(&alo, &ahi, mink_dot(mink_hull_vertex(a0, i, da, moved, back, 1), N), 1);
    for (uint32_t i = 1; i < b0->count; i++)
        mink_extent_add(&blo, &bhi, mink_dot(mink_hull_vertex(b0, i, db, moved, back, 1), N), 1);
    float tol_a, tol_b;
    mink_meet_tolerances(alo, ahi, blo, bhi, ref, flat_a, flat_b, &tol_a, &tol_b);
    float at0 = MINK_INF, at1 = -MINK_INF, bt0 = MINK_INF, bt1 = -MINK_INF;
    for (uint32_t i = 0; i < a0->count; i++)
        mink_meet_span_a(&at0, &at1, mink_hull_vertex(a0, i, da, moved, back, 1), N, alo, tol_a, 1);
    for (uint32_t i = 0; i < b0->count; i++)
        mink_meet_span_b(&bt0, &bt1, mink_hull_vertex(b0, i, db, moved, back, 1), N, bhi, tol_b, 1);
    return mink_meet_point_at(ref, N, alo, bhi, at0, at1, bt0, bt1);
}
MINK_INLINE mink_vec2 mink_hull_meet_point_flat(const mink_hull *a0, const mink_hull *b0, mink_vec2 N, float flat_a,
                                                float flat_b) {
    mink_vec2 zero = mink_v2(0.0f, 0.0f);
    return mink_hull_meet_point_moved(a0, zero, b0, zero, 0, N, flat_a, flat_b);
}
MINK_INLINE mink_vec2 mink_hull_meet_point(const mink_hull *a0, const mink_hull *b0, mink_vec2 N) {
    return mink_hull_meet_point_flat(a0, b0, N, 0.0f, 0.0f);
}

/* ---- swept SAT --------------------------------------------------------------------------------- */

/// Swept SAT's state over the axes tried so far (mink_hull_sweep; host/scalar.c keeps one per
/// pair of a block, as columns).
typedef struct mink_swept_sat {
    float t_enter, t_leave, depth;
    mink_vec2 enter_n, depth_n;
    int overlap, bad; /* bad: an axis's projections or speed not finite */
} mink_swept_sat;

MINK_INLINE mink_swept_sat mink_swept_sat_start(void) {
    mink_swept_sat s;
    s.t_enter = -MINK_INF;
    s.t_leave = MINK_INF;
    s.enter_n = mink_v2(-1.0f, 0.0f);
    s.depth = MINK_INF;
    s.depth_n = s.enter_n;
    s.overlap = 1;
    s.bad = 0;
    return s;
}

/// One axis n of swept SAT: a's projection on it [alo, ahi], b's [blo, bhi], the relative motion d.
MINK_INLINE void mink_swept_sat_axis(mink_swept_sat *s, mink_vec2 n, float alo, float ahi, float blo, float bhi,
                                     mink_vec2 d) {
    float lo = blo - ahi, hi = bhi - alo, v = mink_dot(d, n);
    s->bad |= !(mink_finite(lo) & mink_finite(hi) & mink_finite(v));
    float en, lv;
    mink_slab(lo, hi, v, &en, &lv);
    /* a moving up the axis (v > 0) comes from below b: the normal from b towards a is −n. */
    int later = en > s->t_enter, up = v > 0.0f;
    mink_vec2 enter_n = up ? mink_v2(-n.x, -n.y) : n;
    s->t_enter = later ? en : s->t_enter;
    s->enter_n = later ? enter_n : s->enter_n;
    s->t_leave = mink_minf(s->t_leave, lv);
    s->overlap = s->overlap & (lo < 0.0f) & (0.0f < hi);
    int below = -lo < s->depth;
    s->depth = below ? -lo : s->depth;
    s->depth_n = below ? mink_v2(-n.x, -n.y) : s->depth_n;
    int above = hi < s->depth;
    s->depth = above ? hi : s->depth;
    s->depth_n = above ? n : s->depth_n;
}

/// Whether swept SAT, every axis tried, finds the hulls overlapping at the start or meeting within
/// the step: otherwise its answer is none, and needs no hull.
MINK_INLINE int mink_swept_sat_meets(const mink_swept_sat *s) {
    return s->overlap | ((s->t_enter < s->t_leave) & (s->t_enter >= 0.0f) & (s->t_enter < 1.0f));
}

/// Swept SAT's answer for hulls that meet (mink_swept_sat_meets), from their meeting point: where
/// they overlap at the start, or where they touch at the time of contact.
MINK_INLINE mink_hit mink_swept_sat_hit(const mink_swept_sat *s, mink_vec2 point) {
    mink_hit h = mink_hit_none();
    int o = s->overlap;
    h.t = o ? h.t : s->t_enter + 0.0f; /* never −0 */
    h.normal = o ? s->depth_n : s->enter_n;
    h.depth = o ? s->depth : h.depth;
    h.point = point;
    h.t_exit = s->t_leave;
    h.flags = o ? (uint32_t)(MINK_HIT_CONTACT | MINK_HIT_OVERLAP) : (uint32_t)MINK_HIT_CONTACT;
    return mink_hit_checked(h);
}

/// Where mink_swept_sat_answer finds the meeting point: along N, the hulls moved by *move_a and
/// *move_b when they do not overlap at the start (the return: moved).
MINK_INLINE int mink_swept_sat_meeting(const mink_swept_sat *s, mink_vec2 da, mink_vec2 db, mink_vec2 *N,
                                       mink_vec2 *move_a, mink_vec2 *move_b) {
    float t = s->t_enter;
    *N = s->overlap ? s->depth_n : s->enter_n;
    *move_a = mink_v2(da.x * t, da.y * t);
    *move_b = mink_v2(db.x * t, db.y * t);
    return !s->overlap;
}

/// The answer of swept SAT once every axis is tried (s not bad), from the hulls it swept.
MINK_INLINE mink_hit mink_swept_sat_answer(const mink_hull *a, mink_vec2 da, const mink_hull *b, mink_vec2 db,
                                           const mink_swept_sat *s) {
    if (!mink_swept_sat_meets(s)) return mink_hit_none();
    mink_vec2 N, at, bt;
    int moved = mink_swept_sat_meeting(s, da, db, &N, &at, &bt); /* where they are at t */
    return mink_swept_sat_hit(s, mink_hull_meet_point_moved(a, at, b, bt, moved, N, 0.0f, 0.0f));
}

/// Swept SAT for two convex hulls without rotation: a moves by da over the step, b by db.
///
/// On every candidate axis n (a's, then b's) a's projection moves against b's at the speed
/// v = (da − db)·n, and the open intervals overlap while lo < v·t < hi, lo = b.min − a.max and
/// hi = b.max − a.min: the seed's t1 = (max_a − min_b)/(speed_b − speed_a) and its mirror are this
/// slab's ends. mink_slab gives its open interval of t, and since the axes do not turn, the
/// interiors overlap exactly during the intersection of all of them: first contact is the latest
/// entry, exit the earliest leave. So touching (an end at 0), grazing (entry == leave: empty) and
/// motion parallel to an axis (v == 0: inside forever or never) mean what they mean for boxes.
/// Normal: the axis of the latest entry (the first on a tie), pointing from b towards a. If the
/// interiors overlap at t = 0: the minimum translation vector, the least of −n (depth a.max −
/// b.min) and +n (depth b.max − a.min) over the axes in order, the first on a tie.
MINK_INLINE mink_hit mink_hull_sweep(const mink_hull *a, mink_vec2 da, const mink_hull *b, mink_vec2 db) {
    mink_vec2 d = mink_v2(da.x - db.x, da.y - db.y);
    if (!mink_hull_is_valid(a) || !mink_hull_is_valid(b) || !mink__vec2_is_valid(d)) return mink_hit_invalid();
    mink_swept_sat s = mink_swept_sat_start();
    uint32_t total = a->axes + b->axes;
    for (uint32_t k = 0; k < total; k++) {
        mink_vec2 n = k < a->axes ? a->n[k] : b->n[k - a->axes];
        float alo, ahi, blo, bhi;
        mink_hull_project(a, n, &alo, &ahi);
        mink_hull_project(b, n, &blo, &bhi);
        mink_swept_sat_axis(&s, n, alo, ahi, blo, bhi, d);
        if (s.bad) return mink_hit_invalid();
    }
    return mink_swept_sat_answer(a, da, b, db, &s);
}

MINK_INLINE int mink_step_is_valid(mink_vec2 va, mink_vec2 vb, float dt) {
    return mink__vec2_is_valid(va) & mink__vec2_is_valid(vb) & mink_finite(dt) & (dt >= 0.0f);
}

/// Whether two shapes inside disks of radii ra and rb about ca and cb are clearly apart on an axis
/// by more than the step's motion can close, with a factor 2 that no rounding can fake: then
/// there is no contact, and no work. Most pairs of a batch end here.
MINK_INLINE int mink_clearly_apart(mink_vec2 ca, float ra, mink_vec2 va, mink_vec2 cb, float rb, mink_vec2 vb, float dt) {
    float R = ra + rb;
    float dx = (va.x - vb.x) * dt, dy = (va.y - vb.y) * dt;
    int apart_x = mink_absf(ca.x - cb.x) > 2.0f * (R + mink_absf(dx));
    int apart_y = mink_absf(ca.y - cb.y) > 2.0f * (R + mink_absf(dy));
    return apart_x | apart_y; /* no branch: a loop over pairs vectorizes */
}

/// The disk about a box's centre that holds it.
MINK_INLINE float mink_aabb_reach(mink_aabb b) { return (b.max.x - b.min.x) * 0.5f + (b.max.y - b.min.y) * 0.5f; }
MINK_INLINE mink_vec2 mink_aabb_center(mink_aabb b) {
    return mink_v2((b.min.x + b.max.x) * 0.5f, (b.min.y + b.max.y) * 0.5f);
}

/// How a polygon pair's checks fall, for pairs checked side by side (host/scalar.c): 0 invalid
/// input, 1 valid and clearly apart (no contact), 2 to sweep (mink_sweep_polygon_hulls). The
/// checks of mink__sweep_polygon, every one made (mink_polygon_is_valid_within `corners`) where it
/// returns at the first that fails.
MINK_ALWAYS_INLINE int mink_polygon_pair_state(mink_polygon a, mink_vec2 va, mink_polygon b, mink_vec2 vb, float dt,
                                               uint32_t corners) {
    int ok = mink_polygon_is_valid_within(a, corners) & mink_polygon_is_valid_within(b, corners) &
             mink_step_is_valid(va, vb, dt);
    int apart = mink_clearly_apart(a.position, a.radius, va, b.position, b.radius, vb, dt);
    return ok ? (apart ? 1 : 2) : 0;
}

/// mink_polygon_pair_state for a polygon and a box (mink__sweep_polygon_aabb's checks).
MINK_ALWAYS_INLINE int mink_polygon_aabb_pair_state(mink_polygon a, mink_vec2 va, mink_aabb b, mink_vec2 vb,
                                                    float dt, uint32_t corners) {
    int ok = mink_polygon_is_valid_within(a, corners) & mink__aabb_is_valid(b) & mink_step_is_valid(va, vb, dt);
    int apart = mink_clearly_apart(a.position, a.radius, va, mink_aabb_center(b), mink_aabb_reach(b), vb, dt);
    return ok ? (apart ? 1 : 2) : 0;
}

/// The rest of mink_sweep_polygon for a pair whose input is valid and not clearly apart: the
/// hulls placed and swept.
MINK_ALWAYS_INLINE mink_hit mink_sweep_polygon_hulls(const mink_polygon *a, mink_vec2 va, const mink_polygon *b,
                                                     mink_vec2 vb, float dt) {
    mink_vec2 zero = mink_v2(0.0f, 0.0f);
    mink_hull ha = mink_polygon_hull(*a, zero, a->angle), hb = mink_polygon_hull(*b, zero, b->angle);
    return mink_hull_sweep(&ha, mink_v2(va.x * dt, va.y * dt), &hb, mink_v2(vb.x * dt, vb.y * dt));
}

/* The body of mink_sweep_polygon (mink/polygon.h). */
MINK_INLINE mink_hit mink__sweep_polygon(mink_polygon a, mink_vec2 va, mink_polygon b, mink_vec2 vb, float dt) {
    if (!mink__polygon_is_valid(a) || !mink__polygon_is_valid(b) || !mink_step_is_valid(va, vb, dt))
        return mink_hit_invalid();
    if (mink_clearly_apart(a.position, a.radius, va, b.position, b.radius, vb, dt)) return mink_hit_none();
    return mink_sweep_polygon_hulls(&a, va, &b, vb, dt);
}

/// The rest of mink_sweep_polygon_aabb for a pair whose input is valid and not clearly apart.
MINK_ALWAYS_INLINE mink_hit mink_sweep_polygon_aabb_hulls(const mink_polygon *a, mink_vec2 va, mink_aabb b,
                                                          mink_vec2 vb, float dt) {
    mink_hull ha = mink_polygon_hull(*a, mink_v2(0.0f, 0.0f), a->angle), hb = mink_aabb_hull(b);
    return mink_hull_sweep(&ha, mink_v2(va.x * dt, va.y * dt), &hb, mink_v2(vb.x * dt, vb.y * dt));
}

/* The body of mink_sweep_polygon_aabb (mink/polygon.h). */
MINK_INLINE mink_hit mink__sweep_polygon_aabb(mink_polygon a, mink_vec2 va, mink_aabb b, mink_vec2 vb, float dt) {
    if (!mink__polygon_is_valid(a) || !mink__aabb_is_valid(b) || !mink_step_is_valid(va, vb, dt))
        return mink_hit_invalid();
    if (mink_clearly_apart(a.position, a.radius, va, mink_aabb_center(b), mink_aabb_reach(b), vb, dt))
        return mink_hit_none();
    return mink_sweep_polygon_aabb_hulls(&a, va, b, vb, dt);
}

/* ---- circle against polygon -------------------------------------------------------------------- */

/// The search for the feature of a hull nearest to a point q, a corner at a time: q's greatest
/// separation from a face so far (the first of equals), that face's normal and its two ends,
/// carried along so that the end needs no lookup by index (a block's hulls as columns have none).
/// Starts at face 0, whose ends are v0 and v1 (v0 again for a hull of one vertex).
typedef struct mink_feature_search {
    float sep;
    mink_vec2 n, v1, v2; /* the face's normal, its first and second ends (mink_feature_end's 0, 1) */
} mink_feature_search;

MINK_INLINE mink_feature_search mink_feature_start(mink_vec2 n0, mink_vec2 v0, mink_vec2 v1) {
    mink_feature_search f;
    f.sep = -MINK_INF;
    f.n = n0, f.v1 = v0, f.v2 = v1;
    return f;
}

/// The face from corner v to corner `next` (corner 0 after the last), with normal n, counted when
/// `on` (a hull's corners past its count are not on).
MINK_ALWAYS_INLINE void mink_feature_corner(mink_feature_search *f, mink_vec2 q, mink_vec2 v, mink_vec2 n,
                                            mink_vec2 next, int on) {
    float si = mink_dot(mink_v2(q.x - v.x, q.y - v.y), n);
    int take = on & (si > f->sep);
    f->sep = take ? si : f->sep;
    f->n = mink_v2(take ? n.x : f->n.x, take ? n.y : f->n.y);
    f->v1 = mink_v2(take ? v.x : f->v1.x, take ? v.y : f->v1.y);
    f->v2 = mink_v2(take ? next.x : f->v2.x, take ? next.y : f->v2.y);
}

/// The feature the search found, for a hull of `count` vertices: −1 the face (the nearest one when
/// q projects onto it, and when q is inside), 0 or 1 the face's first or second end, which q lies
/// beyond. A segment (two vertices: two faces, one line) has q beyond an end when on its line.
MINK_ALWAYS_INLINE int mink_feature_end(const mink_feature_search *f, mink_vec2 q, uint32_t count) {
    mink_vec2 e = mink_v2(f->v2.x - f->v1.x, f->v2.y - f->v1.y);
    int inside = !(f->sep > 0.0f) & (count != 2u); /* inside every face: inside the polygon */
    int before = mink_dot(mink_v2(q.x - f->v1.x, q.y - f->v1.y), e) < 0.0f;
    int after = mink_dot(mink_v2(q.x - f->v2.x, q.y - f->v2.y), e) > 0.0f;
    return inside ? -1 : (before ? 0 : (after ? 1 : -1));
}

/// The vertex mink_feature_end named (0 or 1).
MINK_ALWAYS_INLINE mink_vec2 mink_feature_vertex(const mink_feature_search *f, int end) {
    return mink_v2(end == 1 ? f->v2.x : f->v1.x, end == 1 ? f->v2.y : f->v1.y);
}

/// The search over every face of hull b.
MINK_INLINE mink_feature_search mink_hull_feature(const mink_hull *b, mink_vec2 q) {
    mink_feature_search f = mink_feature_start(b->n[0], b->v[0], b->v[b->count > 1u ? 1u : 0u]);
    for (uint32_t i = 0; i < b->count; i++)
        mink_feature_corner(&f, q, b->v[i], b->n[i], b->v[i + 1u < b->count ? i + 1u : 0u], 1);
    return f;
}

/// The slabs of a circle's centre against a hull grown by its radius, over the hull's axes so far
/// (mink_sweep_circle_hull; host/scalar.c keeps one per pair of a block, as columns).
typedef struct mink_circle_slabs {
    float t_in, t_out;
    mink_vec2 n_in;
    int bad; /* an axis's projections or speed not finite */
} mink_circle_slabs;

MINK_INLINE mink_circle_slabs mink_circle_slabs_start(void) {
    mink_circle_slabs s;
    s.t_in = -MINK_INF;
    s.t_out = MINK_INF;
    s.n_in = mink_v2(-1.0f, 0.0f);
    s.bad = 0;
    return s;
}

/// One axis n of the hull, its projection [blo, bhi], for the centre p of radius r moving by d.
MINK_INLINE void mink_circle_slabs_axis(mink_circle_slabs *s, mink_vec2 n, float blo, float bhi, mink_vec2 p, float r,
                                        mink_vec2 d) {
    float c = mink_dot(p, n);
    float lo = (blo - r) - c, hi = (bhi + r) - c, v = mink_dot(d, n);
    s->bad |= !(mink_finite(lo) & mink_finite(hi) & mink_finite(v));
    float en, lv;
    mink_slab(lo, hi, v, &en, &lv);
    int later = en > s->t_in;
    mink_vec2 n_in = v > 0.0f ? mink_v2(-n.x, -n.y) : n; /* the centre moving up the axis meets its low side */
    s->t_in = later ? en : s->t_in;
    s->n_in = later ? n_in : s->n_in;
    s->t_out = mink_minf(s->t_out, lv);
}

/// Whether the slabs, every axis tried, leave the centre inside the grown hull within the step:
/// otherwise the answer is none.
MINK_INLINE int mink_circle_slabs_meet(const mink_circle_slabs *s) {
    return s->t_in < s->t_out && s->t_out > 0.0f && s->t_in < 1.0f;
}

/// Where mink_circle_slabs_finish asks for the nearest feature of the hull: the centre at the
/// start (q[0]), where it enters the slabs from t = 0 on (q[1]), where it leaves them (q[2]).
MINK_ALWAYS_INLINE void mink_circle_slabs_points(mink_vec2 p, mink_vec2 d, const mink_circle_slabs *s,
                                                 mink_vec2 q[3]) {
    float t_from = s->t_in > 0.0f ? s->t_in : 0.0f;
    q[0] = p;
    q[1] = mink_v2(p.x + d.x * t_from, p.y + d.y * t_from);
    q[2] = mink_v2(p.x + d.x * s->t_out, p.y + d.y * s->t_out);
}

/// The answer of mink_sweep_circle_hull once every axis is tried and the slabs meet (s neither bad
/// nor apart): circle a (velocity va) moving by d relative to a hull of `count` vertices, whose
/// features nearest to the three points of mink_circle_slabs_points are f[0..2]:
/// - overlapping at the start: the penetration vector is the shortest move of a that separates
///   them: out through the nearest face when the centre is inside or beside a face, away from the
///   vertex when it lies beyond one; t_exit is where the centre leaves the rounded hull, never
///   before now (rounding at large coordinates can put a vertex disk's exit before 0: fuzzing found
///   −0.63 for a polygon 2^24 across);
/// - else a contact where the centre enters the slabs, or, if that point lies beyond a vertex, with
///   the vertex's disk, solved exactly by the circle roots, or none: between the vertex's two face
///   bands the grown polygon is a kite whose sides towards the bands lie within r of the vertex,
///   so a line that misses the disk leaves the kite without reaching them;
/// - the exit: where the slabs are left, or, beyond a vertex there, where its disk is.
/// Every case's answer selected; `lazy` (a constant) skips the roots and lengths the answer will
/// not select, for one pair (a kernel's work-item), and 0 computes them all, for a block of pairs
/// side by side (host/scalar.c). The same bits either way.
MINK_ALWAYS_INLINE mink_hit mink_circle_slabs_finish(mink_circle a, mink_vec2 va, float dt, mink_vec2 d,
                                                     const mink_circle_slabs *s, const mink_feature_search f[3],
                                                     uint32_t count, int lazy) {
    float r = a.radius;
    mink_vec2 p = a.center, q[3];
    mink_circle_slabs_points(p, d, s, q);
    int end0 = mink_feature_end(&f[0], q[0], count), end1 = mink_feature_end(&f[1], q[1], count);
    int end2 = mink_feature_end(&f[2], q[2], count);
    mink_vec2 k0 = mink_feature_vertex(&f[0], end0), k1 = mink_feature_vertex(&f[1], end1);
    mink_vec2 k2 = mink_feature_vertex(&f[2], end2);
    float u0 = 0.0f, u1 = 0.0f, w0 = 0.0f, w1 = 0.0f, length = 0.0f;
    int inside = 0, exits = 0, meets = 0;
    /* The exit first: both answers carry it. */
    int vertex_exit = mink_finite(s->t_out) & (end2 >= 0);
    if (!lazy || vertex_exit) exits = mink_circle_roots(mink_v2(p.x - k2.x, p.y - k2.y), d, r, &u0, &u1, &inside);
    float t_exit = vertex_exit & exits ? u1 : s->t_out;
    /* Overlapping: by the vertex's distance or the face's separation. */
    mink_vec2 s0 = mink_v2(p.x - k0.x, p.y - k0.y), sk = mink_v2(p.x - k1.x, p.y - k1.y);
    if (!lazy || end0 >= 0) length = mink_length(s0);
    float dist = end0 >= 0 ? length : f[0].sep; /* a zero radius needs the centre strictly inside */
    int overlapping = dist < r;
    /* The contact, with the vertex's disk beyond one. */
    if (!lazy || (!overlapping && end1 >= 0)) meets = mink_circle_roots(sk, d, r, &w0, &w1, &inside);
    float t = end1 >= 0 ? w0 : s->t_in;
    /* One direction: the overlap's from its vertex, or the contact's from its vertex. */
    mink_vec2 toward = mink_v2(sk.x + d.x * t, sk.y + d.y * t), dir = mink_v2(0.0f, 0.0f);
    if (!lazy || (overlapping ? end0 >= 0 : end1 >= 0))
        dir = mink_normalize_or_left(mink_v2(overlapping ? s0.x : toward.x, overlapping ? s0.y : toward.y));
    mink_vec2 n_overlap = mink_v2(end0 >= 0 ? dir.x : f[0].n.x, end0 >= 0 ? dir.y : f[0].n.y);
    mink_vec2 n_contact = mink_v2(end1 >= 0 ? dir.x : s->n_in.x, end1 >= 0 ? dir.y : s->n_in.y);
    mink_hit overlap = mink_circle_overlap_hit(p, r, n_overlap, r - dist, 0.0f), out = overlap;
    out.t_exit = mink_maxf(t_exit, 0.0f);
    out = mink_hit_select(overlap.flags & MINK_HIT_INVALID, overlap, mink_hit_checked(out)); /* no exit time */
    if (lazy && overlapping) return out;
    float st = dt * t;
    mink_vec2 ca = mink_v2(p.x + va.x * st, p.y + va.y * st);
    mink_hit contact = mink_circle_contact_hit(t, ca, r, n_contact, t_exit);
    contact = mink_hit_select(((end1 < 0) | meets) & (t >= 0.0f) & (t < 1.0f), contact, mink_hit_none());
    return mink_hit_select(overlapping, out, contact);
}

/// The answer of mink_sweep_circle_hull once every axis is tried (s not bad): d the relative motion
/// over the step.
MINK_INLINE mink_hit mink_circle_slabs_answer(mink_circle a, mink_vec2 va, const mink_hull *b, float dt, mink_vec2 d,
                                              const mink_circle_slabs *s) {
    if (!mink_circle_slabs_meet(s)) return mink_hit_none();
    mink_vec2 q[3];
    mink_feature_search f[3];
    mink_circle_slabs_points(a.center, d, s, q);
    for (int k = 0; k < 3; k++) f[k] = mink_hull_feature(b, q[k]);
    return mink_circle_slabs_finish(a, va, dt, d, s, f, b->count, 1);
}

/// Swept test: circle a moving by d relative to hull b, a polygon rounded by the radius. As for
/// circle–box: the slabs of b's face axes, grown by r on both sides, give where the centre enters
/// the polygon grown by r. If that point lies beyond a vertex, the contact is with the vertex's
/// disk, solved exactly by the circle roots, or there is none: between the vertex's two face bands
/// the grown polygon is a kite whose sides towards the bands lie within r of the vertex, so a line
/// that misses the disk leaves the kite without reaching them.
MINK_INLINE mink_hit mink_sweep_circle_hull(mink_circle a, mink_vec2 va, const mink_hull *b, mink_vec2 vb, float dt) {
    float r = a.radius;
    mink_vec2 p = a.center;
    mink_vec2 d = mink_v2((va.x - vb.x) * dt, (va.y - vb.y) * dt);
    if (!mink__vec2_is_valid(d) || !mink_hull_is_valid(b)) return mink_hit_invalid();
    mink_circle_slabs s = mink_circle_slabs_start();
    for (uint32_t i = 0; i < b->axes; i++) {
        mink_vec2 n = b->n[i];
        float blo, bhi;
        mink_hull_project(b, n, &blo, &bhi);
        mink_circle_slabs_axis(&s, n, blo, bhi, p, r, d);
        if (s.bad) return mink_hit_invalid();
    }
    return mink_circle_slabs_answer(a, va, b, dt, d, &s);
}

/// mink_polygon_pair_state for a circle and a polygon (mink_sweep_circle_polygon's checks).
MINK_ALWAYS_INLINE int mink_circle_polygon_pair_state(mink_circle a, mink_vec2 va, mink_polygon b, mink_vec2 vb,
                                                      float dt, uint32_t corners) {
    int ok = mink__circle_is_valid(a) & mink_polygon_is_valid_within(b, corners) & mink_step_is_valid(va, vb, dt);
    int apart = mink_clearly_apart(a.center, a.radius, va, b.position, b.radius, vb, dt);
    return ok ? (apart ? 1 : 2) : 0;
}

/// The rest of mink_sweep_circle_polygon for a pair whose input is valid and not clearly apart.
MINK_ALWAYS_INLINE mink_hit mink_sweep_circle_polygon_hull(mink_circle a, mink_vec2 va, const mink_polygon *b,
                                                           mink_vec2 vb, float dt) {
    mink_hull hb = mink_polygon_hull(*b, mink_v2(0.0f, 0.0f), b->angle);
    return mink_sweep_circle_hull(a, va, &hb, vb, dt);
}

/// Swept test: circle a against polygon b, neither turning.
MINK_INLINE mink_hit mink_sweep_circle_polygon(mink_circle a, mink_vec2 va, mink_polygon b, mink_vec2 vb, float dt) {
    if (!mink__circle_is_valid(a) || !mink__polygon_is_valid(b) || !mink_step_is_valid(va, vb, dt))
        return mink_hit_invalid();
    if (mink_clearly_apart(a.center, a.radius, va, b.position, b.radius, vb, dt)) return mink_hit_none();
    return mink_sweep_circle_polygon_hull(a, va, &b, vb, dt);
}

/* The body of mink_sweep_polygon_circle (mink/polygon.h). */
MINK_INLINE mink_hit mink__sweep_polygon_circle(mink_polygon a, mink_vec2 va, mink_circle b, mink_vec2 vb, float dt) {
    return mink_hit_mirror(mink_sweep_circle_polygon(b, vb, a, va, dt));
}

/* The body of mink_overlap_polygon (mink/polygon.h). */
MINK_INLINE mink_hit mink__overlap_polygon(mink_polygon a, mink_polygon b) {
    mink_vec2 still = mink_v2(0.0f, 0.0f);
    return mink__sweep_polygon(a, still, b, still, 1.0f);
}
/* The body of mink_overlap_polygon_aabb (mink/polygon.h). */
MINK_INLINE mink_hit mink__overlap_polygon_aabb(mink_polygon a, mink_aabb b) {
    mink_vec2 still = mink_v2(0.0f, 0.0f);
    return mink__sweep_polygon_aabb(a, still, b, still, 1.0f);
}
/* The body of mink_overlap_polygon_circle (mink/polygon.h). */
MINK_INLINE mink_hit mink__overlap_polygon_circle(mink_polygon a, mink_circle b) {
    mink_vec2 still = mink_v2(0.0f, 0.0f);
    return mink__sweep_polygon_circle(a, still, b, still, 1.0f);
}

#endif /* MINK_CORE_POLYGON_H */
