/* mink/geom.h — boxes and circles: the value types, and the single queries on them.
 *
 * The queries are compiled inside the library with the flags that make them agree bit for bit
 * with every batch and device, so the flags a program is built with cannot change an answer.
 * The types are valid OpenCL C too: the kernels share them.
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

#if defined(__OPENCL_C_VERSION__) || defined(__OPENCL_VERSION__)
typedef uint uint32_t; /* the types below spell their words so; OpenCL C calls them uint */
typedef ulong uint64_t;
#else
#include <stdint.h>
#endif

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
    MINK_HIT_NOT_CONVERGED = 1u << 3, ///< conservative advancement hit its iteration cap: t is safe, not final
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

/// A circle (a disk: the interior counts). radius >= 0; a zero radius is a point.
typedef struct mink_circle {
    mink_vec2 center;
    float radius;
} mink_circle;

/// One record of a circle batch. 40 bytes.
typedef struct mink_circle_pair {
    mink_circle a;
    mink_vec2 va;
    mink_circle b;
    mink_vec2 vb;
} mink_circle_pair;

/// One record of a circle–box batch: circle a against box b. 44 bytes.
typedef struct mink_circle_aabb_pair {
    mink_circle a;
    mink_vec2 va;
    mink_aabb b;
    mink_vec2 vb;
} mink_circle_aabb_pair;

/// A vector from its coordinates.
static inline mink_vec2 mink_v2(float x, float y) {
    mink_vec2 v;
    v.x = x;
    v.y = y;
    return v;
}

#if !defined(__OPENCL_C_VERSION__) && !defined(__OPENCL_VERSION__)
#ifdef __cplusplus
extern "C" {
#endif

/// Finite coordinates.
int mink_vec2_is_valid(mink_vec2 v);

/// A box is valid when its corners are finite and min <= max on both axes.
int mink_aabb_is_valid(mink_aabb b);

/// The Minkowski difference a − b: the set of all p − q with p in a and q in b. The interiors of a
/// and b overlap exactly when the origin lies in its interior.
mink_aabb mink_aabb_minkowski_diff(mink_aabb a, mink_aabb b);

/// Discrete test: do the interiors of a and b overlap? If so, flags = CONTACT|OVERLAP, t = 0,
/// normal and depth are the penetration vector, point the centre of the intersection, and
/// t_exit = INFINITY (nothing moves). Otherwise flags = 0.
mink_hit mink_overlap_aabb(mink_aabb a, mink_aabb b);

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
///
/// Every case is computed and the answer picked field by field at the end, with no branch: in a
/// loop over many pairs compilers then turn the whole query into SIMD selects (4 to 8 pairs per
/// instruction), which an early return prevents. What is computed for a case not taken, even from
/// invalid input, is dropped by the selects, so the bits are those of the branching form.
mink_hit mink_sweep_aabb(mink_aabb a, mink_vec2 va, mink_aabb b, mink_vec2 vb, float dt);

/// A circle is valid when its centre and radius are finite and the radius is >= 0.
int mink_circle_is_valid(mink_circle c);

/// Swept test: circle a moves with va, circle b with vb, for a step of dt (finite, >= 0).
/// Relative to b, a's centre moves from s = a − b by d = (va − vb)·dt; the interiors overlap while
/// |s + d·t| < R = ra + rb (core/geom.h, mink_circle_roots, says how the roots stay accurate). If they already
/// overlap, the result is mink_overlap_circle's with t_exit the larger root. Otherwise a contact at
/// the smaller root t in [0, 1): normal from b's centre towards a's at t, point where the surfaces
/// meet. Touching at t = 0 and approaching is a contact at 0; a graze is none.
mink_hit mink_sweep_circle(mink_circle a, mink_vec2 va, mink_circle b, mink_vec2 vb, float dt);

/// Swept test: circle a moves with va, box b with vb, for a step of dt (finite, >= 0).
/// Relative to b, a's centre p moves by d = (va − vb)·dt, and the interiors overlap while p is
/// inside the rounded box: b grown by the radius, with quarter disks at the corners. The slab
/// method on the grown box finds where p enters it; if that point lies beyond a corner of b (or p
/// starts in such a corner square), the contact is with that corner's disk, by the circle roots, or
/// there is none: a line that misses the quarter disk cannot reach the faces without touching it.
/// Normal: the face's, or from the corner towards the centre. Point: where the circle touches b.
mink_hit mink_sweep_circle_aabb(mink_circle a, mink_vec2 va, mink_aabb b, mink_vec2 vb, float dt);

/// Discrete test: do the disks' interiors overlap? It is the sweep without motion: normal from
/// b's centre towards a's ((−1, 0) for concentric circles), depth R − |s|, the point halfway along
/// the penetration, t_exit INFINITY.
mink_hit mink_overlap_circle(mink_circle a, mink_circle b);

/// Discrete test: does the disk's interior overlap the box's? The sweep without motion (see
/// mink_circle_aabb_overlap in core/geom.h for the penetration vector), t_exit INFINITY.
mink_hit mink_overlap_circle_aabb(mink_circle a, mink_aabb b);

#ifdef __cplusplus
}
#endif
#endif

#endif /* MINK_GEOM_H */
