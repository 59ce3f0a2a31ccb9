/* core/circle.h — circles, and circles against boxes: the quadratic of the relative motion,
 * scaled so that its squares neither overflow nor underflow; circle and circle–box columns for
 * the batches (both sweeps written without branches, so that loops over pairs vectorize).
 *
 * Valid C99 and OpenCL C, under the rules of core/geom.h.
 */
#ifndef MINK_CORE_CIRCLE_H
#define MINK_CORE_CIRCLE_H

#include "core/geom.h"

/* ---- circles ----------------------------------------------------------------------------------- */

/* The body of mink_circle_is_valid (mink/geom.h). */
MINK_INLINE int mink__circle_is_valid(mink_circle c) {
    return mink__vec2_is_valid(c.center) & mink_finite(c.radius) & (c.radius >= 0.0f);
}

MINK_INLINE float mink_dot(mink_vec2 a, mink_vec2 b) { return a.x * b.x + a.y * b.y; }
MINK_INLINE float mink_cross(mink_vec2 a, mink_vec2 b) { return a.x * b.y - a.y * b.x; }
MINK_INLINE float mink_absf(float x) { return x < 0.0f ? -x : x; }

/// The exponent e with m = f·2^e, f in [0.5, 1) (frexpf's): scaling by 2^−e brings m just under 1.
/// m finite and >= 0; 0 for 0. Read from the bits, a subnormal m first scaled up by 2^24 (exact);
/// selects between floats only, which a batch loop vectorizes.
MINK_INLINE int mink_exponent(float m) {
    int sub = m < 1.17549435e-38f; /* FLT_MIN */
    float n = m * (sub ? 16777216.0f : 1.0f);
    float bias = m == 0.0f ? 0.0f : (sub ? 150.0f : 126.0f);
    return (int)((mink_float_bits(n) >> 23) & 0xffu) - (int)bias;
}

/// 2^k for k in [−149, 103], exactly: 2^(k+24), a normal float, times 2^−24 (a product of powers of
/// two is exact even where it is subnormal).
MINK_INLINE float mink_pow2(int k) { return mink_bits_float((uint32_t)(k + 151) << 23) * 5.96046448e-8f; }

/// x·2^k for k in [−149, 167], rounded once, as ldexpf(x, k) is: one product by an exact power of
/// two, or for k > 64 two, both scaling up, which is exact below overflow.
MINK_INLINE float mink_scale(float x, int k) {
    int big = k > 64;
    float p = mink_pow2(k), q = mink_pow2(k - 64); /* the one not used may be garbage */
    return x * (big ? q : p) * (big ? 18446744073709551616.0f : 1.0f);
}

/// mink_direction with v scaled by 2^-e, e the exponent of its largest coordinate (mink_exponent),
/// or 0 where that scaling changes no bit (mink_circle_tame).
MINK_ALWAYS_INLINE mink_vec2 mink_direction_at(mink_vec2 v, int e, float *length) {
    float m = mink_maxf(mink_absf(v.x), mink_absf(v.y));
    float x = mink_scale(v.x, -e), y = mink_scale(v.y, -e);
    float len = mink_sqrtf(x * x + y * y);
    int zero = m == 0.0f;
    *length = zero ? 0.0f : mink_scale(len, e);
    return mink_v2(zero ? -1.0f : x / len, zero ? 0.0f : y / len);
}

/// Unit vector along v, and |v| in *length, with one square root: v is scaled by a power of two
/// first (exact), so nothing overflows or underflows in the square, a tiny v (whose length would be
/// a rounded subnormal: fuzzing found (2^-149, 2^-149) giving (1, 1)) and a huge one are as exact
/// as any, and along an axis the length is exact, since sqrt(fl(x²)) = |x|; where |v| is a normal
/// float the direction's bits are those of v / |v|. A zero v has length 0 and direction (−1, 0)
/// (concentric circles, a centre on a corner), the one the box rules prefer on a tie.
MINK_INLINE mink_vec2 mink_direction(mink_vec2 v, float *length) {
    return mink_direction_at(v, mink_exponent(mink_maxf(mink_absf(v.x), mink_absf(v.y))), length);
}

/// |v|: mink_direction's length, without the direction's two divisions (a kernel drops them
/// unused; the scalar path, where the call is not inlined, computed them: a world step asks a
/// body's length a dozen times).
MINK_INLINE float mink_length(mink_vec2 v) {
    float m = mink_maxf(mink_absf(v.x), mink_absf(v.y));
    int e = mink_exponent(m);
    float x = mink_scale(v.x, -e), y = mink_scale(v.y, -e);
    return m == 0.0f ? 0.0f : mink_scale(mink_sqrtf(x * x + y * y), e);
}

/// Unit vector along v; (−1, 0) when v is zero (see mink_direction).
MINK_INLINE mink_vec2 mink_normalize_or_left(mink_vec2 v) {
    float length;
    return mink_direction(v, &length);
}

/// The result shared by every pair kind with a circle a, an overlap or a contact (chosen by a
/// select, so that a batch loop builds either with one set of instructions). An overlap: normal n
/// (b towards a), depth, and the point halfway along the penetration segment, from a's deepest
/// point, centre − n·r, to b's, that point + n·depth; t is 0. A contact: at time t, a's centre at
/// `center`, touching along n; depth is 0.
MINK_INLINE mink_hit mink_circle_hit(int overlap, float t, mink_vec2 center, float radius, mink_vec2 n, float depth,
                                     float t_exit) {
    mink_hit h;
    float back = radius - (overlap ? depth : 0.0f) * 0.5f; /* radius exactly for a contact */
    h.t = overlap ? 0.0f : t + 0.0f;                     /* never −0 */
    h.normal = n;
    h.depth = overlap ? depth : 0.0f;
    h.point = mink_v2(center.x - n.x * back, center.y - n.y * back);
    /* A pass shorter than float resolution can round the exit an ulp before the entry. */
    h.t_exit = overlap ? t_exit : (t_exit < h.t ? h.t : t_exit);
    h.flags = overlap ? (uint32_t)(MINK_HIT_CONTACT | MINK_HIT_OVERLAP) : (uint32_t)MINK_HIT_CONTACT;
    return mink_hit_checked(h);
}

/// The overlap result of mink_circle_hit.
MINK_INLINE mink_hit mink_circle_overlap_hit(mink_vec2 center, float radius, mink_vec2 n, float depth,
                                             float t_exit) {
    return mink_circle_hit(1, 0.0f, center, radius, n, depth, t_exit);
}

/// The contact result of mink_circle_hit.
MINK_INLINE mink_hit mink_circle_contact_hit(float t, mink_vec2 center, float radius, mink_vec2 n,
                                             float t_exit) {
    return mink_circle_hit(0, t, center, radius, n, 0.0f, t_exit);
}

/// The times when a point at s + d·t is strictly within R of the origin: the roots of
/// |s + d·t|² = R², written so that nothing overflows and nothing large cancels:
///   - s, d and R are first scaled by one power of two so that the largest is just under 1
///     (exact; t is a ratio and does not change), so no square or product overflows or underflows
///     whatever the coordinates;
///   - c = (|s| − R)(|s| + R) rather than s·s − R², exact when s lies on an axis;
///   - the discriminant (s·d)² − |d|²c by Lagrange's identity as |d|²R² − (s×d)², factored as
///     (|d|R − |s×d|)(|d|R + |s×d|): b² and ac are huge and nearly equal when the circles are far
///     apart against their radii, their difference is not;
///   - the smaller root as c / q and the larger as q / |d|², q = −b + √disc when b <= 0 (and the
///     mirrored forms when b > 0), so neither subtracts nearly equal numbers when the gap is tiny
///     against the speed (the schoolbook (−b − √disc)/a loses every digit there).
/// Returns 0 when the interiors never overlap for any t (no motion and apart, a miss, or a double
/// root: the circles only graze). *inside says whether they overlap at t = 0; then the roots are
/// always given (*t0 < 0 <= *t1), even where rounding puts the line of motion at R or farther
/// (|s| a hair under R, moving along the tangent): the discriminant is taken as 0 there.
/// Taken at the scales 2^-es (whether they overlap at t = 0, and c) and 2^-e (the rest): es and e
/// the exponents of their largest coordinates (mink_circle_roots), or 0 and 0 for a tame pair
/// (mink_circle_tame), where that scaling changes no bit.
MINK_ALWAYS_INLINE int mink_circle_roots_at(mink_vec2 s, mink_vec2 d, float R, int es, int e, float *t0, float *t1,
                                             int *inside) {
    /* Every case computed, the answer selected: batch loops over circles vectorize. */
    /* Whether they overlap at t = 0, and c, at the scale of s and R alone: at the motion's, when it
     * is far larger, the squares of s and R underflowed, and circles apart came back overlapping
     * (with a negative depth) or overlapping ones apart. Scaled to the motion's after (exact
     * wherever the old way had no subnormal, so the same bits there). */
    mink_vec2 s1 = mink_v2(mink_scale(s.x, -es), mink_scale(s.y, -es));
    float R1 = mink_scale(R, -es), len = mink_sqrtf(mink_dot(s1, s1));
    float c1 = (len - R1) * (len + R1);
    int in = c1 < 0.0f;
    int kc = 2 * (es - e); /* <= 0; below −149 c is a signed 0, as at the motion's scale before */
    float c = kc < -149 ? c1 * 0.0f : mink_scale(c1, kc);
    s = mink_v2(mink_scale(s.x, -e), mink_scale(s.y, -e));
    d = mink_v2(mink_scale(d.x, -e), mink_scale(d.y, -e));
    R = mink_scale(R, -e);
    float dd = mink_dot(d, d);
    int still = dd == 0.0f; /* no relative motion: inside forever or never */
    float b = mink_dot(s, d);
    float k = mink_sqrtf(dd) * R, n = mink_absf(mink_cross(s, d));
    /* The line of motion passes at R or farther: a graze or a miss. */
    int miss = !(n < k) & !in;
    float sq = mink_sqrtf(mink_maxf((k - n) * (k + n), 0.0f));
    int back = b <= 0.0f;
    float q = back ? sq - b : -(b + sq); /* >= sq > 0, or < 0 */
    float cq = c / q, qd = q / dd;
    float r0 = back ? cq : qd, r1 = back ? qd : cq;
    *inside = in;
    *t0 = still ? -MINK_INF : (miss ? 0.0f : r0);
    *t1 = still ? MINK_INF : (miss ? 0.0f : r1);
    /* Selects between floats, not flags: GCC vectorizes only the first. */
    return (still ? (in ? 1.0f : 0.0f) : (miss ? 0.0f : 1.0f)) != 0.0f;
}

/// Whether x is 0 or its magnitude lies in [least, 2^30] (mink_circle_tame); a NaN never does.
MINK_INLINE int mink_tame_coordinate(float x, float least) {
    float a = mink_absf(x);
    return (a == 0.0f) | ((a >= least) & (a <= 1073741824.0f));
}

/// Whether a circle pair's relative motion (s and d as mink_circle_roots takes them, R its radii's
/// sum, >= 0) is tame: every coordinate of s and d, and R, either 0 or within [2^-24, 2^30] and no
/// smaller than 2^-22 of the largest of them, and R no smaller than 2^-12 of it. Then every
/// product, sum, square root and quotient in mink_circle_roots and in the answer's mink_direction
/// (of s, or of the centres' offset at contact, whose length is R but for its rounding, a few ulps
/// of the motion's size: under 2^-7 of R) is a normal float or 0 both where it stands and at the
/// scale the scaling brings it to (the smallest, a difference of two squares of the motion's size
/// one ulp apart: 2^-119 at worst), so scaling by a power of two changes no bit and may be left
/// out (mink_circle_roots_at, mink_direction_at with exponents 0). NaN and infinity are never tame.
MINK_INLINE int mink_circle_tame(mink_vec2 s, mink_vec2 d, float R) {
    float most = mink_maxf(mink_maxf(mink_maxf(mink_absf(s.x), mink_absf(s.y)), mink_maxf(mink_absf(d.x), mink_absf(d.y))), R);
    float least = mink_maxf(most * 2.38418579e-7f, 5.96046448e-8f); /* 2^-22 of the largest, and 2^-24 */
    return mink_tame_coordinate(s.x, least) & mink_tame_coordinate(s.y, least) & mink_tame_coordinate(d.x, least) &
           mink_tame_coordinate(d.y, least) & mink_tame_coordinate(R, least) & (R >= most * 0.000244140625f);
}

/// mink_circle_roots_at at the exponents of the largest coordinates: what every query calls.
MINK_ALWAYS_INLINE int mink_circle_roots(mink_vec2 s, mink_vec2 d, float R, float *t0, float *t1, int *inside) {
    float ms = mink_maxf(mink_maxf(mink_absf(s.x), mink_absf(s.y)), R);
    int es = mink_exponent(ms), e = mink_exponent(mink_maxf(ms, mink_maxf(mink_absf(d.x), mink_absf(d.y))));
    return mink_circle_roots_at(s, d, R, es, e, t0, t1, inside);
}

/// The distance within which disks a and b, moving by ma and mb over the step, are taken to come
/// near each other (mink_disks_may_meet): the sum of their radii and a margin far above any
/// sweep's rounding: 2^-10 of the radii, 2^-17 of the coordinates and moves, 2^-60 outright so
/// that its square is normal.
MINK_INLINE float mink_disks_reach(mink_circle a, mink_vec2 ma, mink_circle b, mink_vec2 mb) {
    float scale = ((mink_absf(a.center.x) + mink_absf(a.center.y)) + (mink_absf(b.center.x) + mink_absf(b.center.y))) +
                  ((mink_absf(ma.x) + mink_absf(ma.y)) + (mink_absf(mb.x) + mink_absf(mb.y)));
    return ((a.radius + b.radius) * 1.0009765625f + scale * 0.00000762939453125f) + 0x1p-60f;
}

/// Whether disks a and b, moving by ma and mb over the step, may come within each other: 0 only
/// when they stay farther apart than mink_disks_reach, and 2^-12 of the closest approach's square
/// where it cancels, and 2^-120 on that comparison, whose products may be subnormal, or flushed to
/// 0 by a device; so a pair ruled out is one mink_sweep_placed of the shapes inside finds no
/// contact for. A square or product that overflows rules nothing out. The passes that sweep pairs
/// again ask this first: most of the pairs they sweep never meet, and this costs a few
/// multiplications; so does a turning pair, before it advances (mink_movers_start).
MINK_INLINE int mink_disks_may_meet(mink_circle a, mink_vec2 ma, mink_circle b, mink_vec2 mb) {
    float dx = b.center.x - a.center.x, dy = b.center.y - a.center.y, mx = mb.x - ma.x, my = mb.y - ma.y;
    float r = mink_disks_reach(a, ma, b, mb), rr = r * r;
    float mm = mx * mx + my * my, s = -(dx * mx + dy * my), d0 = dx * dx + dy * dy, dm = d0 * mm;
    float ex = dx + mx, ey = dy + my, d1 = ex * ex + ey * ey;
    int far0 = d0 > rr, far1 = d1 > rr, between = dm * 0.999755859375f - s * s > rr * mm + 0x1p-120f;
    int far = s <= 0.0f ? far0 : s >= mm ? far1 : (far0 & far1 & between);
    return !(far & ((((d0 + d1) + (mm + rr)) + dm) < MINK_INF));
}

/* A circle pair's sweep in two halves: the roots of its relative motion, then the hit they make.
 * mink_sweep_circle runs one after the other; the column loops run the first over a block of
 * pairs, then the second over the same block. Each half is a chain of dependent operations (the
 * scaling, two square roots and a division), and one loop over the whole sweep held too many
 * instructions for the core to overlap a vector of pairs with the next. The second half also
 * builds one hit with one normalization, of the vector its answer needs (s for an overlap, the
 * centres' offset at contact), where the whole sweep built both answers in full. Both changes
 * made the column loops faster on both paths, with the same bits (docs/benchmarks.md, "Figures
 * behind the code"). */

/// How the roots of a circle pair fall (mink_sweep_circle_roots): floats, so that batch loops
/// keep them in the same vectors as the roots.
#define MINK_CIRCLE_APART 0.0f  /* the interiors never overlap */
#define MINK_CIRCLE_INSIDE 1.0f /* they overlap at t = 0 */
#define MINK_CIRCLE_MEET 2.0f   /* they overlap between the roots, not at t = 0 */

/// First half of mink_sweep_circle: the roots *t0 <= *t1 of the pair's relative motion
/// (mink_circle_roots) and how they fall. Nothing else, so that the loop over a block's roots is
/// short.
MINK_ALWAYS_INLINE float mink_sweep_circle_roots_as(mink_circle a, mink_vec2 va, mink_circle b, mink_vec2 vb, float dt,
                                                    int tame, float *t0, float *t1) {
    mink_vec2 s = mink_v2(a.center.x - b.center.x, a.center.y - b.center.y);
    mink_vec2 d = mink_v2((va.x - vb.x) * dt, (va.y - vb.y) * dt);
    int inside, meets;
    if (tame)
        meets = mink_circle_roots_at(s, d, a.radius + b.radius, 0, 0, t0, t1, &inside);
    else
        meets = mink_circle_roots(s, d, a.radius + b.radius, t0, t1, &inside);
    return inside ? MINK_CIRCLE_INSIDE : (meets ? MINK_CIRCLE_MEET : MINK_CIRCLE_APART);
}
MINK_ALWAYS_INLINE float mink_sweep_circle_roots(mink_circle a, mink_vec2 va, mink_circle b, mink_vec2 vb, float dt,
                                                 float *t0, float *t1) {
    return mink_sweep_circle_roots_as(a, va, b, vb, dt, 0, t0, t1);
}

/// Whether a circle pair is tame (mink_circle_tame), from its records as the halves below read them:
/// its halves may then leave out every scaling (`tame` 1), with the same bits.
MINK_ALWAYS_INLINE int mink_circle_pair_tame(mink_circle a, mink_vec2 va, mink_circle b, mink_vec2 vb, float dt) {
    mink_vec2 s = mink_v2(a.center.x - b.center.x, a.center.y - b.center.y);
    mink_vec2 d = mink_v2((va.x - vb.x) * dt, (va.y - vb.y) * dt);
    return mink_circle_tame(s, d, a.radius + b.radius);
}

/// Second half of mink_sweep_circle: the hit that the roots t0, t1 and how they fall make.
MINK_ALWAYS_INLINE mink_hit mink_sweep_circle_answer_as(mink_circle a, mink_vec2 va, mink_circle b, mink_vec2 vb,
                                                        float dt, int tame, float t0, float t1, float roots) {
    /* Every case computed, the answer selected: batch loops over circles vectorize. */
    mink_vec2 s = mink_v2(a.center.x - b.center.x, a.center.y - b.center.y);
    mink_vec2 d = mink_v2((va.x - vb.x) * dt, (va.y - vb.y) * dt);
    float R = a.radius + b.radius;
    /* Valid: every field finite, the radii and dt >= 0, and s, d and R finite (not overflowed).
     * Checking s, d and R checks every field too, with half the instructions: inf − x, x − inf,
     * inf·x, x·inf (0 included), inf + x and NaN in any of them are never finite, so a finite s
     * needs finite centres, a finite d finite velocities and dt, a finite R finite radii. */
    int ok = mink__vec2_is_valid(s) & mink__vec2_is_valid(d) & mink_finite(R) & (a.radius >= 0.0f) &
             (b.radius >= 0.0f) & (dt >= 0.0f);
    /* Clearly apart on an axis by more than the motion can close (with a factor 2 that no rounding
     * can fake): no contact. */
    int apart_x = mink_absf(s.x) > 2.0f * (R + mink_absf(d.x)), apart_y = mink_absf(s.y) > 2.0f * (R + mink_absf(d.y));
    int apart = apart_x | apart_y;
    int inside = roots == MINK_CIRCLE_INSIDE;
    int contact = (roots == MINK_CIRCLE_MEET) & (t0 >= 0.0f) & (t0 < 1.0f);
    float st = dt * t0;
    mink_vec2 ca = mink_v2(a.center.x + va.x * st, a.center.y + va.y * st);
    mink_vec2 p = mink_v2(s.x + d.x * t0, s.y + d.y * t0);
    /* One normalization and one hit, of what the answer needs: s for an overlap, p at contact. */
    float length;
    mink_vec2 v = mink_v2(inside ? s.x : p.x, inside ? s.y : p.y);
    mink_vec2 n = tame ? mink_direction_at(v, 0, &length) : mink_direction(v, &length);
    mink_vec2 at = mink_v2(inside ? a.center.x : ca.x, inside ? a.center.y : ca.y);
    mink_hit h = mink_circle_hit(inside, t0, at, a.radius, n, R - length, t1);
    h = mink_hit_select((inside | contact) & !apart, h, mink_hit_none());
    return mink_hit_select(ok, h, mink_hit_invalid());
}

MINK_ALWAYS_INLINE mink_hit mink_sweep_circle_answer(mink_circle a, mink_vec2 va, mink_circle b, mink_vec2 vb,
                                                     float dt, float t0, float t1, float roots) {
    return mink_sweep_circle_answer_as(a, va, b, vb, dt, 0, t0, t1, roots);
}

/* The body of mink_sweep_circle (mink/geom.h). */
MINK_ALWAYS_INLINE mink_hit mink__sweep_circle(mink_circle a, mink_vec2 va, mink_circle b, mink_vec2 vb, float dt) {
    float t0, t1;
    float roots = mink_sweep_circle_roots(a, va, b, vb, dt, &t0, &t1);
    return mink_sweep_circle_answer(a, va, b, vb, dt, t0, t1, roots);
}

/// Pair i of circle columns (mink_batch_sweep_circle_soa) in two halves, for a loop over a block
/// of pairs with each: the roots of pair i into element j of the arrays t0_, t1_ and roots_, then
/// its answer from them into the 8 output arrays. The inputs are 10 arrays (a's centre and radius,
/// its velocity, then b's); as MINK_SWEEP_AABB_COLUMN.
#define MINK_CIRCLE_COLUMN_PAIR_(i_, a_x_, a_y_, a_radius_, va_x_, va_y_, b_x_, b_y_, b_radius_, vb_x_, vb_y_)    \
    mink_circle mink_a_, mink_b_;                                                                             \
    mink_a_.center = mink_v2((a_x_)[i_], (a_y_)[i_]);                                                         \
    mink_a_.radius = (a_radius_)[i_];                                                                         \
    mink_b_.center = mink_v2((b_x_)[i_], (b_y_)[i_]);                                                         \
    mink_b_.radius = (b_radius_)[i_];                                                                         \
    mink_vec2 mink_va_ = mink_v2((va_x_)[i_], (va_y_)[i_]), mink_vb_ = mink_v2((vb_x_)[i_], (vb_y_)[i_])
#define MINK_CIRCLE_COLUMN_ROOTS(...) MINK_CIRCLE_COLUMN_ROOTS_AS(0, __VA_ARGS__)
#define MINK_CIRCLE_COLUMN_ANSWER(...) MINK_CIRCLE_COLUMN_ANSWER_AS(0, __VA_ARGS__)
/* The same, tame pairs (mink_circle_pair_tame) without scaling when tame_ is 1. */
#define MINK_CIRCLE_COLUMN_ROOTS_AS(tame_, i_, j_, dt_, a_x_, a_y_, a_radius_, va_x_, va_y_, b_x_, b_y_, b_radius_,   \
                                    vb_x_, vb_y_, t0_, t1_, roots_)                                           \
    do {                                                                                                      \
        MINK_CIRCLE_COLUMN_PAIR_(i_, a_x_, a_y_, a_radius_, va_x_, va_y_, b_x_, b_y_, b_radius_, vb_x_, vb_y_);  \
        float mink_t0_, mink_t1_;                                                                             \
        (roots_)[j_] = mink_sweep_circle_roots_as(mink_a_, mink_va_, mink_b_, mink_vb_, (dt_), (tame_), &mink_t0_, \
                                                  &mink_t1_);                                                 \
        (t0_)[j_] = mink_t0_;                                                                                 \
        (t1_)[j_] = mink_t1_;                                                                                 \
    } while (0)
#define MINK_CIRCLE_COLUMN_ANSWER_AS(tame_, i_, j_, dt_, a_x_, a_y_, a_radius_, va_x_, va_y_, b_x_, b_y_, b_radius_,  \
                                     vb_x_, vb_y_, t0_, t1_, roots_, ...)                                     \
    do {                                                                                                      \
        MINK_CIRCLE_COLUMN_PAIR_(i_, a_x_, a_y_, a_radius_, va_x_, va_y_, b_x_, b_y_, b_radius_, vb_x_, vb_y_);  \
        mink_hit mink_h_ = mink_sweep_circle_answer_as(mink_a_, mink_va_, mink_b_, mink_vb_, (dt_), (tame_),     \
                                                       (t0_)[j_], (t1_)[j_], (roots_)[j_]);                    \
        MINK_STORE_HIT_COLUMN(i_, mink_h_, __VA_ARGS__);                                                      \
    } while (0)

/* ---- circle against box ------------------------------------------------------------------------ */

/// Which side of [lo, hi] x lies on: −1 below, +1 above, 0 within (closed).
MINK_INLINE int mink_side(float x, float lo, float hi) { return x < lo ? -1 : (x > hi ? 1 : 0); }

/// The corner of b on the given sides (each −1 or +1).
MINK_INLINE mink_vec2 mink_aabb_corner(mink_aabb b, int sx, int sy) {
    return mink_v2(sx < 0 ? b.min.x : b.max.x, sy < 0 ? b.min.y : b.max.y);
}

/// When a centre starting at p and moving by d leaves the box b grown by r with rounded corners
/// (the Minkowski sum of b and the disk), given that it is inside or enters it, and that the slabs
/// of the grown box are left at t_slab: through a face, or through a corner's quarter disk.
/// Which sides of b the centre, starting at p and moving by d, lies on at time t (*sx, *sy, as
/// mink_side), and whether that is beyond a corner.
MINK_ALWAYS_INLINE int mink_beyond_corner(mink_vec2 p, mink_vec2 d, mink_aabb b, float t, int *sx, int *sy) {
    mink_vec2 e = mink_v2(p.x + d.x * t, p.y + d.y * t);
    *sx = mink_side(e.x, b.min.x, b.max.x), *sy = mink_side(e.y, b.min.y, b.max.y);
    return (*sx != 0) & (*sy != 0);
}

MINK_ALWAYS_INLINE float mink_rounded_box_exit(mink_vec2 p, mink_vec2 d, mink_aabb b, float r, float t_slab) {
    /* Every case computed, the answer selected (here and below): batch loops vectorize. */
    int sx, sy;
    mink_beyond_corner(p, d, b, t_slab, &sx, &sy);
    mink_vec2 k = mink_aabb_corner(b, sx, sy);
    float t0, t1;
    int inside;
    int meets = mink_circle_roots(mink_v2(p.x - k.x, p.y - k.y), d, r, &t0, &t1, &inside);
    return (sx != 0) & (sy != 0) & mink_finite(t_slab) & meets ? t1 : t_slab;
}

/// Discrete test: does the disk's interior overlap the box's? The penetration vector is the
/// shortest move of a that separates them: out through the nearest face when the centre is
/// beside the box, away from the corner when it is beyond one, and when the centre is inside the
/// box, the least of the four face moves in the order −x, +x, −y, +y (as for boxes).
MINK_ALWAYS_INLINE mink_hit mink_circle_aabb_overlap(mink_circle a, mink_aabb b, float t_exit) {
    mink_vec2 p = a.center;
    float r = a.radius;
    int sx = mink_side(p.x, b.min.x, b.max.x), sy = mink_side(p.y, b.min.y, b.max.y);
    float ex = sx < 0 ? b.min.x - p.x : (sx > 0 ? p.x - b.max.x : 0.0f);
    float ey = sy < 0 ? b.min.y - p.y : (sy > 0 ? p.y - b.max.y : 0.0f);
    int corner = (sx != 0) & (sy != 0), face_x = (sx != 0) & (sy == 0), face_y = (sx == 0) & (sy != 0);
    /* Beyond a corner: away from it. */
    mink_vec2 k = mink_aabb_corner(b, sx, sy);
    float len;
    mink_vec2 nc = mink_direction(mink_v2(p.x - k.x, p.y - k.y), &len);
    /* Centre inside the closed box (a zero radius needs it strictly inside): the least face move. */
    int held = (p.x - b.min.x > -r) & (b.max.x - p.x > -r) & (p.y - b.min.y > -r) & (b.max.y - p.y > -r);
    float depth_in = (p.x - b.min.x) + r, nx = -1.0f, ny = 0.0f;
    float m = (b.max.x - p.x) + r;
    int less = m < depth_in;
    depth_in = less ? m : depth_in, nx = less ? 1.0f : nx, ny = less ? 0.0f : ny;
    m = (p.y - b.min.y) + r, less = m < depth_in;
    depth_in = less ? m : depth_in, nx = less ? 0.0f : nx, ny = less ? -1.0f : ny;
    m = (b.max.y - p.y) + r, less = m < depth_in;
    depth_in = less ? m : depth_in, nx = less ? 0.0f : nx, ny = less ? 1.0f : ny;
    int hit = corner ? len < r : (face_x ? ex < r : (face_y ? ey < r : held));
    float depth = corner ? r - len : (face_x ? r - ex : (face_y ? r - ey : depth_in));
    mink_vec2 n = mink_v2(corner ? nc.x : (face_x ? (float)sx : (face_y ? 0.0f : nx)),
                          corner ? nc.y : (face_x ? 0.0f : (face_y ? (float)sy : ny)));
    return mink_hit_select(hit, mink_circle_overlap_hit(p, r, n, depth, t_exit), mink_hit_none());
}

/// First part of mink_sweep_circle_aabb: whether the input is valid (*ok) and whether the centre
/// is in the box grown by the radius at some time of the step (*reach), from its slabs: the
/// times it is inside them, *t_in to *t_out, entering across y (*enter_on_y) or x. A pair that
/// does not reach it is no contact; a caller that branches skips the rest for it.
MINK_ALWAYS_INLINE void mink_circle_aabb_reach(mink_circle a, mink_vec2 va, mink_aabb b, mink_vec2 vb, float dt,
                                               int *ok, int *reach, int *enter_on_y, float *t_in, float *t_out) {
    float r = a.radius;
    mink_vec2 p = a.center;
    mink_vec2 d = mink_v2((va.x - vb.x) * dt, (va.y - vb.y) * dt);
    /* The grown box's slabs, relative to p: the ray d·t from the origin must be inside. The box
     * first, then the radius: a box edge near p is exactly that far from it, and a radius far
     * smaller than the coordinates is kept (the other order rounded it away, and a disk missed a
     * point box that the same point as a circle of radius 0 hit). */
    float lox = (b.min.x - p.x) - r, hix = (b.max.x - p.x) + r;
    float loy = (b.min.y - p.y) - r, hiy = (b.max.y - p.y) + r;
    *ok = mink__circle_is_valid(a) & mink__aabb_is_valid(b) & mink__vec2_is_valid(va) & mink__vec2_is_valid(vb) &
          mink_finite(dt) & (dt >= 0.0f) & mink__vec2_is_valid(d) & mink_finite(lox) & mink_finite(hix) &
          mink_finite(loy) & mink_finite(hiy);
    float ex, xx, ey, xy;
    mink_slab(lox, hix, d.x, &ex, &xx);
    mink_slab(loy, hiy, d.y, &ey, &xy);
    *enter_on_y = ey > ex;
    *t_in = *enter_on_y ? ey : ex, *t_out = mink_minf(xx, xy);
    /* An overlap at the start has t_in < 0 < t_out. */
    *reach = (*t_in < *t_out) & (*t_out > 0.0f) & (*t_in < 1.0f);
}

/// The normal of a face that a centre moving by d enters, across y or x (b towards a: moving +x
/// it enters the −x face, so the normal is −x).
MINK_INLINE mink_vec2 mink_face_normal(mink_vec2 d, int enter_on_y) {
    return mink_v2(enter_on_y ? 0.0f : (d.x > 0.0f ? -1.0f : 1.0f), enter_on_y ? (d.y > 0.0f ? -1.0f : 1.0f) : 0.0f);
}

/// The contact of circle a, moving by va in the step dt, at time t along n, leaving at t_exit.
MINK_ALWAYS_INLINE mink_hit mink_circle_aabb_contact(mink_circle a, mink_vec2 va, float dt, float t, mink_vec2 n,
                                                     float t_exit) {
    float st = dt * t;
    return mink_circle_contact_hit(t, mink_v2(a.center.x + va.x * st, a.center.y + va.y * st), a.radius, n, t_exit);
}

/// The rest of mink_sweep_circle_aabb for most pairs that reach the box: those whose centre
/// enters the grown box after the start (t_in > 0) through a face and leaves it through a face.
/// Their answer needs no root and no square root: a contact at t_in, on the face's normal,
/// leaving at t_out. *face says whether the pair is one of them (then the hit is
/// mink_sweep_circle_aabb_reached's, bit for bit); the hit of any other pair is meaningless.
/// Why no overlap: t_in > 0 takes a slab entry lo / d > 0, so the centre starts strictly farther
/// than r beyond that face (lo = (edge − p) − r rounded > 0 only if edge − p rounded > r), where
/// the disk's overlap test (a face or corner distance < r) fails.
MINK_ALWAYS_INLINE mink_hit mink_circle_aabb_face_hit(mink_circle a, mink_vec2 va, mink_aabb b, mink_vec2 vb,
                                                      float dt, int ok, int reach, int enter_on_y, float t_in,
                                                      float t_out, int *face) {
    mink_vec2 p = a.center;
    mink_vec2 d = mink_v2((va.x - vb.x) * dt, (va.y - vb.y) * dt);
    int sx, sy;
    int corner_in = mink_beyond_corner(p, d, b, t_in, &sx, &sy);
    int corner_out = mink_beyond_corner(p, d, b, t_out, &sx, &sy);
    *face = ok & reach & (t_in > 0.0f) & !corner_in & !corner_out;
    return mink_circle_aabb_contact(a, va, dt, t_in, mink_face_normal(d, enter_on_y), t_out);
}

/// The rest of mink_sweep_circle_aabb, given its first part.
MINK_ALWAYS_INLINE mink_hit mink_sweep_circle_aabb_reached(mink_circle a, mink_vec2 va, mink_aabb b, mink_vec2 vb,
                                                           float dt, int ok, int reach, int enter_on_y, float t_in,
                                                           float t_out) {
    float r = a.radius;
    mink_vec2 p = a.center;
    mink_vec2 d = mink_v2((va.x - vb.x) * dt, (va.y - vb.y) * dt);
    float exit = mink_rounded_box_exit(p, d, b, r, t_out);
    /* Overlapping now: the penetration, and its exit (rounding at large coordinates can put a
     * corner disk's exit before 0: never before now), unless its point overflowed. */
    mink_hit overlap = mink_circle_aabb_overlap(a, b, 0.0f), out = overlap;
    out.t_exit = mink_maxf(exit, 0.0f);
    out = mink_hit_select((overlap.flags & MINK_HIT_INVALID) != 0u, overlap, mink_hit_checked(out));

    /* Where p enters the grown box, or p itself when it starts inside it (in a corner square):
     * beyond a corner, the corner's disk or nothing; else through a face (p moving +x enters the
     * −x face, so the normal is −x). */
    int sx, sy, corner = mink_beyond_corner(p, d, b, t_in > 0.0f ? t_in : 0.0f, &sx, &sy);
    mink_vec2 k = mink_aabb_corner(b, sx, sy);
    mink_vec2 s = mink_v2(p.x - k.x, p.y - k.y);
    float t0, t1;
    int inside;
    int meets = mink_circle_roots(s, d, r, &t0, &t1, &inside);
    float t = corner ? t0 : t_in;
    mink_vec2 nc = mink_normalize_or_left(mink_v2(s.x + d.x * t0, s.y + d.y * t0));
    mink_vec2 nf = mink_face_normal(d, enter_on_y);
    mink_vec2 n = mink_v2(corner ? nc.x : nf.x, corner ? nc.y : nf.y);
    int contact = (corner ? meets : 1) & (t >= 0.0f) & (t < 1.0f);
    mink_hit h = mink_hit_select(contact, mink_circle_aabb_contact(a, va, dt, t, n, exit), mink_hit_none());
    h = mink_hit_select(overlap.flags != 0u, out, h);
    h = mink_hit_select(reach, h, mink_hit_none());
    return mink_hit_select(ok, h, mink_hit_invalid());
}

/// mink_sweep_circle_aabb inlined wherever it is called, every case computed and the answer
/// selected: the column loops, which vectorize only what they inline and what does not branch.
MINK_ALWAYS_INLINE mink_hit mink_sweep_circle_aabb_inline(mink_circle a, mink_vec2 va, mink_aabb b, mink_vec2 vb,
                                                          float dt) {
    int ok, reach, enter_on_y;
    float t_in, t_out;
    mink_circle_aabb_reach(a, va, b, vb, dt, &ok, &reach, &enter_on_y, &t_in, &t_out);
    return mink_sweep_circle_aabb_reached(a, va, b, vb, dt, ok, reach, enter_on_y, t_in, t_out);
}

/* The body of mink_sweep_circle_aabb (mink/geom.h), for callers one pair at a time (the mixed
 * batches, a world's passes): most pairs there never reach the box and skip the rest, and most of
 * the others are answered by their faces, without roots. The same bits as
 * mink_sweep_circle_aabb_inline. */
MINK_INLINE mink_hit mink__sweep_circle_aabb(mink_circle a, mink_vec2 va, mink_aabb b, mink_vec2 vb, float dt) {
    int ok, reach, enter_on_y;
    float t_in, t_out;
    mink_circle_aabb_reach(a, va, b, vb, dt, &ok, &reach, &enter_on_y, &t_in, &t_out);
    if (ok && !reach) return mink_hit_none();
    int face;
    mink_hit h = mink_circle_aabb_face_hit(a, va, b, vb, dt, ok, reach, enter_on_y, t_in, t_out, &face);
    if (face) return h;
    return mink_sweep_circle_aabb_reached(a, va, b, vb, dt, ok, reach, enter_on_y, t_in, t_out);
}

/// Pair i of circle–box columns (mink_batch_sweep_circle_aabb_soa): loads it from the 11 input
/// arrays (the circle's centre and radius, its velocity, the box's corners, its velocity), sweeps
/// it with sweep_ (mink_sweep_circle_aabb_inline where pairs are swept side by side, else
/// mink__sweep_circle_aabb: the same bits) and stores its hit in the 8 output arrays; as
/// MINK_SWEEP_AABB_COLUMN.
#define MINK_SWEEP_CIRCLE_AABB_COLUMN(sweep_, i_, dt_, a_x_, a_y_, a_radius_, va_x_, va_y_, b_min_x_, b_min_y_,   \
                                      b_max_x_, b_max_y_, vb_x_, vb_y_, ...)                                    \
    do {                                                                                                      \
        mink_circle mink_a_;                                                                                  \
        mink_aabb mink_b_;                                                                                    \
        mink_a_.center = mink_v2((a_x_)[i_], (a_y_)[i_]);                                                     \
        mink_a_.radius = (a_radius_)[i_];                                                                     \
        mink_b_.min = mink_v2((b_min_x_)[i_], (b_min_y_)[i_]);                                                \
        mink_b_.max = mink_v2((b_max_x_)[i_], (b_max_y_)[i_]);                                                \
        mink_hit mink_h_ = sweep_(mink_a_, mink_v2((va_x_)[i_], (va_y_)[i_]), mink_b_,                        \
                                  mink_v2((vb_x_)[i_], (vb_y_)[i_]), (dt_));                                  \
        MINK_STORE_HIT_COLUMN(i_, mink_h_, __VA_ARGS__);                                                      \
    } while (0)

/* The body of mink_overlap_circle (mink/geom.h). */
MINK_INLINE mink_hit mink__overlap_circle(mink_circle a, mink_circle b) {
    mink_vec2 still = mink_v2(0.0f, 0.0f);
    return mink__sweep_circle(a, still, b, still, 1.0f);
}

/* The body of mink_overlap_circle_aabb (mink/geom.h). */
MINK_INLINE mink_hit mink__overlap_circle_aabb(mink_circle a, mink_aabb b) {
    mink_vec2 still = mink_v2(0.0f, 0.0f);
    return mink__sweep_circle_aabb(a, still, b, still, 1.0f);
}

#endif /* MINK_CORE_CIRCLE_H */
