/* mink/geom.h — the collision math, once, for the host and the device.
 *
 * This header is valid C99 and OpenCL C. The scalar path includes it as C; the kernels are built
 * from it as OpenCL C. Both must produce the same bits, so everything here:
 *   - uses float arithmetic only (mink_sqrtf, never a bare sqrt, which is double in C),
 *   - relies on FP contraction being off (-ffp-contract=off on the host, the FP_CONTRACT pragma in
 *     the kernels), so a*b+c is never fused on one side and not on the other,
 *   - uses `a < b ? a : b` selects rather than fminf/fmaxf (they differ on signed zeros across
 *     implementations, and on PoCL they keep kernels from vectorizing).
 *
 * Conventions shared by every query:
 *   - Contact means the interiors overlap. Touching alone (sharing an edge or a corner, grazing a
 *     corner, sliding along a face) is not a contact. Precisely: the origin lies in the interior
 *     of the Minkowski difference a − b. For shapes of positive size that is the same thing; for
 *     zero-size boxes, which are valid, it is what makes them useful: a point strictly inside a box
 *     is a contact, a point on its boundary is not, and two segments that cross are a contact
 *     while a segment that only ends on another is not.
 *   - A hit's normal points from b towards a: the way a must go to leave b.
 *   - Invalid input gives flags == MINK_HIT_INVALID and every other field 0. No result is NaN.
 */
#ifndef MINK_GEOM_H
#define MINK_GEOM_H

/* ---- what differs between C and OpenCL C ------------------------------------------------------ */
#if defined(__OPENCL_C_VERSION__) || defined(__OPENCL_VERSION__)
#define MINK_OPENCL 1
#define MINK_INLINE static inline
#define mink_sqrtf(x) sqrt(x)       /* float overload in OpenCL C */
#define mink_isfinite(x) isfinite(x)
#else
#include <math.h>
#include <stdint.h>
#define MINK_INLINE static inline
#define mink_sqrtf(x) sqrtf(x)
#define mink_isfinite(x) isfinite(x)
#endif

/* The contract spells the flags field uint32_t; in OpenCL C that is a typedef of uint. */
#ifdef MINK_OPENCL
typedef uint uint32_t;
#endif

#define MINK_INF INFINITY

/* ---- types (identical layout on both sides: floats and one 32-bit word, no padding) ---------- */

/// A 2D vector.
typedef struct mink_vec2 {
    float x, y;
} mink_vec2;

/// An axis-aligned box: min <= max on each axis. A zero-size box (a point or a segment) is valid.
typedef struct mink_aabb {
    mink_vec2 min, max;
} mink_aabb;

/// Result flags. 0 means "no contact in this step".
enum {
    MINK_HIT_CONTACT = 1u << 0, ///< the interiors overlap at some time in [0, 1) of the step
    MINK_HIT_OVERLAP = 1u << 1, ///< ... already at t = 0: normal and depth are the penetration vector
    MINK_HIT_INVALID = 1u << 2, ///< the input was invalid (NaN, infinity, min > max, overflow)
};

/// The answer to one query. 32 bytes.
typedef struct mink_hit {
    float t;          ///< first contact, as a fraction of the step, in [0, 1); 0 when already overlapping
    mink_vec2 normal; ///< unit; points from b towards a: the way a must go to leave b
    float depth;      ///< > 0 only when already overlapping: how far along normal a must go to leave b
    mink_vec2 point;  ///< centre of the intersection of the two closed shapes at time t
    float t_exit;     ///< when the interiors stop overlapping: may be > 1; INFINITY if never; 0 if no contact
    uint32_t flags;   ///< MINK_HIT_CONTACT | MINK_HIT_OVERLAP | MINK_HIT_INVALID, or 0
} mink_hit;

/// One record of a box batch: box a moving with velocity va, box b with vb. 48 bytes.
typedef struct mink_aabb_pair {
    mink_aabb a;
    mink_vec2 va;
    mink_aabb b;
    mink_vec2 vb;
} mink_aabb_pair;

/* ---- small helpers ------------------------------------------------------------------------------ */

MINK_INLINE mink_vec2 mink_v2(float x, float y) {
    mink_vec2 v;
    v.x = x;
    v.y = y;
    return v;
}

MINK_INLINE float mink_minf(float a, float b) { return a < b ? a : b; }
MINK_INLINE float mink_maxf(float a, float b) { return a > b ? a : b; }

MINK_INLINE int mink_vec2_is_valid(mink_vec2 v) { return mink_isfinite(v.x) && mink_isfinite(v.y); }

/// A box is valid when its corners are finite and min <= max on both axes.
MINK_INLINE int mink_aabb_is_valid(mink_aabb b) {
    return mink_vec2_is_valid(b.min) && mink_vec2_is_valid(b.max) && b.min.x <= b.max.x &&
           b.min.y <= b.max.y;
}

MINK_INLINE mink_hit mink_hit_none(void) {
    mink_hit h;
    h.t = 0.0f;
    h.normal = mink_v2(0.0f, 0.0f);
    h.depth = 0.0f;
    h.point = mink_v2(0.0f, 0.0f);
    h.t_exit = 0.0f;
    h.flags = 0u;
    return h;
}

MINK_INLINE mink_hit mink_hit_invalid(void) {
    mink_hit h = mink_hit_none();
    h.flags = MINK_HIT_INVALID;
    return h;
}

/// Centre of the intersection of two closed boxes (the boxes need not intersect: the midpoint of
/// the gap is returned then, which is what a contact at the instant of touching needs).
MINK_INLINE mink_vec2 mink_aabb_meet_point(mink_aabb a, mink_aabb b) {
    float lox = mink_maxf(a.min.x, b.min.x), hix = mink_minf(a.max.x, b.max.x);
    float loy = mink_maxf(a.min.y, b.min.y), hiy = mink_minf(a.max.y, b.max.y);
    return mink_v2((lox + hix) * 0.5f, (loy + hiy) * 0.5f);
}

MINK_INLINE mink_aabb mink_aabb_offset(mink_aabb b, mink_vec2 d) {
    mink_aabb r;
    r.min = mink_v2(b.min.x + d.x, b.min.y + d.y);
    r.max = mink_v2(b.max.x + d.x, b.max.y + d.y);
    return r;
}

/* ---- boxes ------------------------------------------------------------------------------------- */

/// The Minkowski difference a − b: the set of all p − q with p in a and q in b. The interiors of a
/// and b overlap exactly when the origin lies in its interior.
MINK_INLINE mink_aabb mink_aabb_minkowski_diff(mink_aabb a, mink_aabb b) {
    mink_aabb md;
    md.min = mink_v2(a.min.x - b.max.x, a.min.y - b.max.y);
    md.max = mink_v2(a.max.x - b.min.x, a.max.y - b.min.y);
    return md;
}

/// Overlap from a Minkowski difference already known to hold the origin in its interior.
/// The penetration vector is the shortest axis-aligned move of a that takes the origin out of
/// a − b (a diagonal move is never shorter than one of its legs). The four candidates are tried in
/// the fixed order −x, +x, −y, +y and only a strictly shorter one replaces the best so far, so ties
/// go to the x axis and to the negative direction.
MINK_INLINE mink_hit mink_aabb_overlap_from_md(mink_aabb a, mink_aabb b, mink_aabb md) {
    mink_hit h = mink_hit_none();
    float depth = md.max.x; /* moving a by −md.max.x along x puts it just on b's −x side */
    mink_vec2 n = mink_v2(-1.0f, 0.0f);
    if (-md.min.x < depth) { depth = -md.min.x; n = mink_v2(1.0f, 0.0f); }
    if (md.max.y < depth) { depth = md.max.y; n = mink_v2(0.0f, -1.0f); }
    if (-md.min.y < depth) { depth = -md.min.y; n = mink_v2(0.0f, 1.0f); }
    h.t = 0.0f;
    h.normal = n;
    h.depth = depth;
    h.point = mink_aabb_meet_point(a, b);
    h.t_exit = MINK_INF; /* no motion: they never separate */
    h.flags = MINK_HIT_CONTACT | MINK_HIT_OVERLAP;
    return h;
}

MINK_INLINE int mink_aabb_md_holds_origin(mink_aabb md) {
    return md.min.x < 0.0f && 0.0f < md.max.x && md.min.y < 0.0f && 0.0f < md.max.y;
}

/// Discrete test: do the interiors of a and b overlap? If so, flags = CONTACT|OVERLAP, t = 0,
/// normal and depth are the penetration vector, point the centre of the intersection, and
/// t_exit = INFINITY (nothing moves). Otherwise flags = 0.
MINK_INLINE mink_hit mink_overlap_aabb(mink_aabb a, mink_aabb b) {
    if (!mink_aabb_is_valid(a) || !mink_aabb_is_valid(b)) return mink_hit_invalid();
    mink_aabb md = mink_aabb_minkowski_diff(a, b);
    if (!mink_aabb_is_valid(md)) return mink_hit_invalid(); /* overflowed */
    if (!mink_aabb_md_holds_origin(md)) return mink_hit_none();
    mink_hit h = mink_aabb_overlap_from_md(a, b, md);
    if (!mink_vec2_is_valid(h.point)) return mink_hit_invalid();
    return h;
}

/// Swept test: a moves with velocity va and b with vb for a step of dt (dt >= 0, finite).
///
/// The relative-motion ray r = (vb − va)·dt is cast from the origin through the Minkowski
/// difference a − b by the slab method: on each axis the open slab min < r·t < max is crossed during
/// an open interval of t, and the interiors overlap exactly during the intersection of the two
/// intervals, (t_enter, t_exit). Why this gets the edge cases right without special code:
///   - Touching: a slab boundary at 0 entered from outside gives t_enter = 0 (contact at t = 0 if
///     they approach) and left from inside gives t_exit = 0 (moving apart: no contact).
///   - Grazing a corner: the ray passes the corner, so t_enter == t_exit: the interval is empty.
///   - Zero motion on an axis: the slab is either always crossed (−inf, +inf) or never; sliding
///     along a face has the origin on a slab boundary, which is never inside the open slab.
///   - dt = 0 is zero motion on both axes.
/// If the interiors already overlap, the result is mink_overlap_aabb's with t_exit set. Otherwise a
/// contact is reported when t_enter is in [0, 1): the normal is the face of b that a hits (the axis
/// of the later entry; x on a tie), the point the centre of the contact segment at t_enter.
MINK_INLINE mink_hit mink_sweep_aabb(mink_aabb a, mink_vec2 va, mink_aabb b, mink_vec2 vb, float dt) {
    if (!mink_aabb_is_valid(a) || !mink_aabb_is_valid(b) || !mink_vec2_is_valid(va) ||
        !mink_vec2_is_valid(vb) || !mink_isfinite(dt) || !(dt >= 0.0f))
        return mink_hit_invalid();
    mink_aabb md = mink_aabb_minkowski_diff(a, b);
    mink_vec2 r = mink_v2((vb.x - va.x) * dt, (vb.y - va.y) * dt);
    if (!mink_aabb_is_valid(md) || !mink_vec2_is_valid(r)) return mink_hit_invalid(); /* overflow */

    /* Slab entry and exit times per axis. r == 0 (either sign of zero): inside forever or never. */
    float ex, xx, ey, xy;
    if (r.x == 0.0f) {
        int in = md.min.x < 0.0f && 0.0f < md.max.x;
        ex = in ? -MINK_INF : MINK_INF;
        xx = in ? MINK_INF : -MINK_INF;
    } else {
        float lo = md.min.x / r.x, hi = md.max.x / r.x;
        ex = r.x > 0.0f ? lo : hi;
        xx = r.x > 0.0f ? hi : lo;
    }
    if (r.y == 0.0f) {
        int in = md.min.y < 0.0f && 0.0f < md.max.y;
        ey = in ? -MINK_INF : MINK_INF;
        xy = in ? MINK_INF : -MINK_INF;
    } else {
        float lo = md.min.y / r.y, hi = md.max.y / r.y;
        ey = r.y > 0.0f ? lo : hi;
        xy = r.y > 0.0f ? hi : lo;
    }
    int enter_on_y = ey > ex;
    float t_enter = enter_on_y ? ey : ex;
    float t_exit = mink_minf(xx, xy);

    if (mink_aabb_md_holds_origin(md)) {
        mink_hit h = mink_aabb_overlap_from_md(a, b, md);
        if (!mink_vec2_is_valid(h.point)) return mink_hit_invalid();
        h.t_exit = t_exit; /* the origin is inside every slab, so this is >= 0 (0 only by underflow) */
        return h;
    }
    if (!(t_enter < t_exit && t_enter >= 0.0f && t_enter < 1.0f)) return mink_hit_none();

    mink_hit h = mink_hit_none();
    h.t = t_enter + 0.0f; /* + 0 turns a −0 (from 0 / negative) into +0 */
    /* The ray moves the origin towards −normal relative to a − b: a approaches b from the +x side
     * when r.x > 0, so b's +x face is hit and the normal (b towards a) is +x. */
    h.normal = enter_on_y ? mink_v2(0.0f, r.y > 0.0f ? 1.0f : -1.0f)
                          : mink_v2(r.x > 0.0f ? 1.0f : -1.0f, 0.0f);
    h.depth = 0.0f;
    float s = dt * h.t;
    h.point = mink_aabb_meet_point(mink_aabb_offset(a, mink_v2(va.x * s, va.y * s)),
                                   mink_aabb_offset(b, mink_v2(vb.x * s, vb.y * s)));
    h.t_exit = t_exit;
    h.flags = MINK_HIT_CONTACT;
    if (!mink_vec2_is_valid(h.point)) return mink_hit_invalid();
    return h;
}

#endif /* MINK_GEOM_H */
