/* core/geom.h — the collision math, once, for the host and the device: its rules, and boxes.
 *
 * Not installed: the library compiles it (host/query.c, host/scalar.c) with the determinism flags,
 * and the kernels are built from it. The contract each query keeps is in mink/geom.h. This header
 * is valid C99 and OpenCL C, and both sides must produce the same bits, so everything here:
 *   - uses float arithmetic only (mink_sqrtf, never a bare sqrt, which is double in C),
 *   - relies on FP contraction being off (-ffp-contract=off on the host, the FP_CONTRACT pragma in
 *     the kernels), so a*b+c is never fused on one side and not on the other,
 *   - uses `a < b ? a : b` selects rather than fminf/fmaxf (they differ on signed zeros across
 *     implementations, and on PoCL they keep kernels from vectorizing).
 * A public query mink_X is the inline mink__X here, wrapped once in host/query.c.
 */
#ifndef MINK_CORE_GEOM_H
#define MINK_CORE_GEOM_H

/* ---- what differs between C and OpenCL C ------------------------------------------------------ */
#if defined(__OPENCL_C_VERSION__) || defined(__OPENCL_VERSION__)
#define MINK_OPENCL 1
/* Everything inlined (MINK_OUTLINE's few aside) while the OpenCL compiler still sees separate
 * floats: on a CPU device the x86-64 calling convention passes a mink_vec2 as a 2-float vector,
 * and a call inlined late leaves those vectors in the kernel, where they keep the loop vectorizer
 * off it (PoCL). */
#define MINK_INLINE static inline __attribute__((always_inline))
#define MINK_ALWAYS_INLINE static inline __attribute__((always_inline))
/* A large query that stays one function in a kernel, whatever calls it and however often: inlined
 * at every call site, the capsule sweep more than doubled the program's build. */
#define MINK_OUTLINE static __attribute__((noinline))
#define mink_sqrtf(x) sqrt(x)       /* float overloads in OpenCL C */
#define mink_frexpf(x, e) frexp((x), (e))
#define mink_ldexpf(x, e) ldexp((x), (e))
#define mink_isfinite(x) isfinite(x)
#else
#include <math.h>
#include <stdint.h>
#define MINK_INLINE static inline
#define MINK_OUTLINE static inline
/* For the queries a batch loop must inline whole to vectorize (the compiler's size limit would
 * otherwise leave a call in the loop). */
#if defined(__GNUC__)
#define MINK_ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define MINK_ALWAYS_INLINE static inline
#endif
#define mink_sqrtf(x) sqrtf(x)
#define mink_frexpf(x, e) frexpf((x), (e))
#define mink_ldexpf(x, e) ldexpf((x), (e))
#define mink_isfinite(x) isfinite(x)
#endif


#include "mink/geom.h"

#define MINK_INF INFINITY
#define MINK_FLOAT_MAX 3.40282347e38f /* FLT_MAX, which C has only from <float.h> */

/* A float's bits and back. */
#ifdef MINK_OPENCL
MINK_INLINE uint32_t mink_float_bits(float x) { return as_uint(x); }
MINK_INLINE float mink_bits_float(uint32_t u) { return as_float(u); }
#else
typedef union mink_float_word {
    float f;
    uint32_t u;
} mink_float_word;
MINK_INLINE uint32_t mink_float_bits(float x) {
    mink_float_word c;
    c.f = x;
    return c.u;
}
MINK_INLINE float mink_bits_float(uint32_t u) {
    mink_float_word c;
    c.u = u;
    return c.f;
}
#endif

/* ---- small helpers ------------------------------------------------------------------------------ */

MINK_INLINE float mink_minf(float a, float b) { return a < b ? a : b; }
MINK_INLINE float mink_maxf(float a, float b) { return a > b ? a : b; }

/// floor(x) for |x| <= 2^22, by truncating to an integer: floorf's value there, on both paths
/// (its bits but for −0, which gives +0), and inline, where floorf on a baseline x86-64 build is a
/// call across which every live float is saved and reloaded. Outside that range (NaN included)
/// the caller clamps first.
MINK_INLINE float mink_floor_small(float x) {
    float t = (float)(int)x;
    return t > x ? t - 1.0f : t;
}

/// isfinite as arithmetic: x − x is 0 for a finite x and NaN for an infinity or a NaN. The same
/// answer as isfinite; unlike it, a comparison that compilers turn into SIMD code (the batch loops
/// that must vectorize use this, and & rather than &&, so that nothing in them branches).
MINK_INLINE int mink_finite(float x) { return x - x == 0.0f; }

/* The body of mink_vec2_is_valid (mink/geom.h). */
MINK_INLINE int mink__vec2_is_valid(mink_vec2 v) { return mink_finite(v.x) & mink_finite(v.y); }

/* The body of mink_aabb_is_valid (mink/geom.h). */
MINK_INLINE int mink__aabb_is_valid(mink_aabb b) {
    return mink__vec2_is_valid(b.min) & mink__vec2_is_valid(b.max) & (b.min.x <= b.max.x) &
           (b.min.y <= b.max.y);
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

/// c ? a : b, field by field: a select per field, which a batch loop vectorizes, where a select
/// of whole structs becomes a branch.
MINK_INLINE mink_hit mink_hit_select(int c, mink_hit a, mink_hit b) {
    mink_hit h;
    h.t = c ? a.t : b.t;
    h.normal = mink_v2(c ? a.normal.x : b.normal.x, c ? a.normal.y : b.normal.y);
    h.depth = c ? a.depth : b.depth;
    h.point = mink_v2(c ? a.point.x : b.point.x, c ? a.point.y : b.point.y);
    h.t_exit = c ? a.t_exit : b.t_exit;
    h.flags = c ? a.flags : b.flags;
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

/// The open slab lo < r·t < hi is crossed during the open interval (*enter, *leave) of t.
/// r == 0 (either sign of zero): inside forever (−inf, +inf) or never (+inf, −inf).
/// Written as selects without a branch (the quotients are computed and dropped when r is 0) so
/// that the box batch loop vectorizes.
MINK_INLINE void mink_slab(float lo, float hi, float r, float *enter, float *leave) {
    int in = (lo < 0.0f) & (0.0f < hi), zero = r == 0.0f, up = r > 0.0f;
    float a = lo / r, b = hi / r;
    float still = in ? -MINK_INF : MINK_INF;
    *enter = zero ? still : (up ? a : b);
    *leave = zero ? -still : (up ? b : a);
}

/// Any non-finite field but t_exit (which may be INFINITY) means a computation overflowed.
MINK_INLINE mink_hit mink_hit_checked(mink_hit h) {
    h.normal = mink_v2(h.normal.x + 0.0f, h.normal.y + 0.0f); /* a −0 (a negated hull normal) as +0, as boxes give */
    int ok = mink_finite(h.t) & mink__vec2_is_valid(h.normal) & mink_finite(h.depth) & mink__vec2_is_valid(h.point) &
             (h.t_exit == h.t_exit);
    return mink_hit_select(ok, h, mink_hit_invalid());
}

/// The same hit seen from the other body: the normal reversed (0 − x keeps +0 for 0).
MINK_INLINE mink_hit mink_hit_mirror(mink_hit h) {
    h.normal = mink_v2(0.0f - h.normal.x, 0.0f - h.normal.y);
    return h;
}

/* ---- boxes ------------------------------------------------------------------------------------- */

/* The body of mink_aabb_minkowski_diff (mink/geom.h). */
MINK_INLINE mink_aabb mink__aabb_minkowski_diff(mink_aabb a, mink_aabb b) {
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
    float nx = -1.0f, ny = 0.0f;
    int c = -md.min.x < depth; /* selects, not branches: see mink_sweep_aabb */
    depth = c ? -md.min.x : depth;
    nx = c ? 1.0f : nx;
    c = md.max.y < depth;
    depth = c ? md.max.y : depth;
    nx = c ? 0.0f : nx;
    ny = c ? -1.0f : ny;
    c = -md.min.y < depth;
    depth = c ? -md.min.y : depth;
    nx = c ? 0.0f : nx;
    ny = c ? 1.0f : ny;
    h.t = 0.0f;
    h.normal = mink_v2(nx, ny);
    h.depth = depth;
    h.point = mink_aabb_meet_point(a, b);
    h.t_exit = MINK_INF; /* no motion: they never separate */
    h.flags = MINK_HIT_CONTACT | MINK_HIT_OVERLAP;
    return h;
}

MINK_INLINE int mink_aabb_md_holds_origin(mink_aabb md) {
    return (md.min.x < 0.0f) & (0.0f < md.max.x) & (md.min.y < 0.0f) & (0.0f < md.max.y);
}

/* The body of mink_overlap_aabb (mink/geom.h). */
MINK_INLINE mink_hit mink__overlap_aabb(mink_aabb a, mink_aabb b) {
    if (!mink__aabb_is_valid(a) || !mink__aabb_is_valid(b)) return mink_hit_invalid();
    mink_aabb md = mink__aabb_minkowski_diff(a, b);
    if (!mink__aabb_is_valid(md)) return mink_hit_invalid(); /* overflowed */
    if (!mink_aabb_md_holds_origin(md)) return mink_hit_none();
    mink_hit h = mink_aabb_overlap_from_md(a, b, md);
    if (!mink__vec2_is_valid(h.point)) return mink_hit_invalid();
    return h;
}

/* The body of mink_sweep_aabb (mink/geom.h). */
MINK_ALWAYS_INLINE mink_hit mink__sweep_aabb(mink_aabb a, mink_vec2 va, mink_aabb b, mink_vec2 vb, float dt) {
    mink_aabb md = mink__aabb_minkowski_diff(a, b);
    mink_vec2 r = mink_v2((vb.x - va.x) * dt, (vb.y - va.y) * dt);
    /* md and r not finite: the input was, but a difference overflowed. */
    int ok = mink__aabb_is_valid(a) & mink__aabb_is_valid(b) & mink__vec2_is_valid(va) & mink__vec2_is_valid(vb) &
             mink_finite(dt) & (dt >= 0.0f) & mink__aabb_is_valid(md) & mink__vec2_is_valid(r);

    float ex, xx, ey, xy;
    mink_slab(md.min.x, md.max.x, r.x, &ex, &xx);
    mink_slab(md.min.y, md.max.y, r.y, &ey, &xy);
    int enter_on_y = ey > ex;
    float t_enter = enter_on_y ? ey : ex;
    float t_exit = mink_minf(xx, xy);
    int holds = mink_aabb_md_holds_origin(md);
    /* t_enter < t_exit, spelled per axis: the same for the non-NaN slab times of valid input, and
     * GCC does not turn it into a select between two comparisons, which it cannot vectorize. */
    int meets = (t_enter < xx) & (t_enter < xy) & (t_enter >= 0.0f) & (t_enter < 1.0f);

    /* Already overlapping: the penetration vector. */
    mink_hit o = mink_aabb_overlap_from_md(a, b, md);
    /* Meeting during the step. The ray moves the origin towards −normal relative to a − b: a
     * approaches b from the +x side when r.x > 0, so b's +x face is hit and the normal (b towards
     * a) is +x. */
    float t = t_enter + 0.0f; /* + 0 turns a −0 (from 0 / negative) into +0 */
    float nx = enter_on_y ? 0.0f : (r.x > 0.0f ? 1.0f : -1.0f);
    float ny = enter_on_y ? (r.y > 0.0f ? 1.0f : -1.0f) : 0.0f;
    float s = dt * t;
    mink_vec2 p = mink_aabb_meet_point(mink_aabb_offset(a, mink_v2(va.x * s, va.y * s)),
                                       mink_aabb_offset(b, mink_v2(vb.x * s, vb.y * s)));
    p = mink_v2(holds ? o.point.x : p.x, holds ? o.point.y : p.y);

    int contact = holds | meets;
    int invalid = (!ok) | (contact & !mink__vec2_is_valid(p)); /* the point overflowed */
    int live = contact & !invalid;
    mink_hit h;
    h.t = (live & !holds) ? t : 0.0f;
    h.normal = mink_v2(live ? (holds ? o.normal.x : nx) : 0.0f, live ? (holds ? o.normal.y : ny) : 0.0f);
    h.depth = (live & holds) ? o.depth : 0.0f;
    h.point = mink_v2(live ? p.x : 0.0f, live ? p.y : 0.0f);
    /* With an overlap the origin is inside every slab, so t_exit >= 0 (0 only by underflow). */
    h.t_exit = live ? t_exit : 0.0f;
    h.flags = invalid ? (uint32_t)MINK_HIT_INVALID
                      : (live ? (holds ? o.flags : (uint32_t)MINK_HIT_CONTACT) : 0u);
    return h;
}

/// Stores hit h as element i of the 8 result columns (mink_hit_soa's fields, in order).
#define MINK_STORE_HIT_COLUMN(i_, h_, t_, normal_x_, normal_y_, depth_, point_x_, point_y_, t_exit_, flags_)    \
    do {                                                                                                      \
        (t_)[i_] = (h_).t;                                                                                    \
        (normal_x_)[i_] = (h_).normal.x;                                                                      \
        (normal_y_)[i_] = (h_).normal.y;                                                                      \
        (depth_)[i_] = (h_).depth;                                                                            \
        (point_x_)[i_] = (h_).point.x;                                                                        \
        (point_y_)[i_] = (h_).point.y;                                                                        \
        (t_exit_)[i_] = (h_).t_exit;                                                                          \
        (flags_)[i_] = (h_).flags;                                                                            \
    } while (0)

/// Pair i of box columns (mink_batch_sweep_aabb_soa): loads it from the 12 input arrays, sweeps
/// it and stores its hit in the 8 output arrays. A macro rather than a function so that one text
/// serves the scalar loop's C pointers and the kernel's __global ones.
#define MINK_SWEEP_AABB_COLUMN(i_, dt_, a_min_x_, a_min_y_, a_max_x_, a_max_y_, va_x_, va_y_, b_min_x_,     \
                               b_min_y_, b_max_x_, b_max_y_, vb_x_, vb_y_, ...)                               \
    do {                                                                                                      \
        mink_aabb mink_a_, mink_b_;                                                                           \
        mink_a_.min = mink_v2((a_min_x_)[i_], (a_min_y_)[i_]);                                                \
        mink_a_.max = mink_v2((a_max_x_)[i_], (a_max_y_)[i_]);                                                \
        mink_b_.min = mink_v2((b_min_x_)[i_], (b_min_y_)[i_]);                                                \
        mink_b_.max = mink_v2((b_max_x_)[i_], (b_max_y_)[i_]);                                                \
        mink_hit mink_h_ = mink__sweep_aabb(mink_a_, mink_v2((va_x_)[i_], (va_y_)[i_]), mink_b_,              \
                                           mink_v2((vb_x_)[i_], (vb_y_)[i_]), (dt_));                         \
        MINK_STORE_HIT_COLUMN(i_, mink_h_, __VA_ARGS__);                                                      \
    } while (0)

#endif /* MINK_CORE_GEOM_H */
