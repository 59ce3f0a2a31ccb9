/* mink/capsule.h — capsules: a segment with a radius, and the single queries on them.
 *
 * A capsule is every point within `radius` of the segment from center1 to center2 (Box2D's
 * b2Capsule): a radius of 0 is the segment itself, equal centres are a circle. Its queries follow
 * mink/geom.h's conventions (contact means the interiors overlap; the normal points from b
 * towards a), and are exact where the others are: a capsule swept against a box, a circle, a
 * polygon or another capsule is a point swept against their Minkowski difference, a polygon
 * rounded by the radii, met in closed form. A capsule that turns is met by conservative
 * advancement (mink/body.h, mink_sweep_rotating).
 */
#ifndef MINK_CAPSULE_H
#define MINK_CAPSULE_H

#include "mink/polygon.h"

/// A segment from center1 to center2 with a radius >= 0. 20 bytes.
typedef struct mink_capsule {
    mink_vec2 center1, center2;
    float radius;
} mink_capsule;

/// One record of a capsule batch: capsule a against capsule b. 56 bytes.
typedef struct mink_capsule_pair {
    mink_capsule a;
    mink_vec2 va;
    mink_capsule b;
    mink_vec2 vb;
} mink_capsule_pair;

/// One record of a capsule–circle batch (a laser against a bullet): capsule a against circle b.
/// 48 bytes.
typedef struct mink_capsule_circle_pair {
    mink_capsule a;
    mink_vec2 va;
    mink_circle b;
    mink_vec2 vb;
} mink_capsule_circle_pair;

#if !defined(__OPENCL_C_VERSION__) && !defined(__OPENCL_VERSION__)
#ifdef __cplusplus
extern "C" {
#endif

/// Finite centres and a finite radius >= 0 (equal centres and a zero radius are valid).
int mink_capsule_is_valid(mink_capsule c);

/// Swept tests over a step of dt (finite, >= 0): capsule a moving with velocity va against the
/// other shape moving with vb. Results as mink_sweep_aabb's: CONTACT at the first t in [0, 1)
/// where the interiors overlap, OVERLAP (t 0, the minimum translation vector) when they already
/// do; touching and grazing are no contact; t_exit when they part. Invalid input: INVALID.
mink_hit mink_sweep_capsule(mink_capsule a, mink_vec2 va, mink_capsule b, mink_vec2 vb, float dt);
mink_hit mink_sweep_capsule_aabb(mink_capsule a, mink_vec2 va, mink_aabb b, mink_vec2 vb, float dt);
mink_hit mink_sweep_capsule_circle(mink_capsule a, mink_vec2 va, mink_circle b, mink_vec2 vb, float dt);
mink_hit mink_sweep_capsule_polygon(mink_capsule a, mink_vec2 va, mink_polygon b, mink_vec2 vb, float dt);

#ifdef __cplusplus
}
#endif
#endif

#endif /* MINK_CAPSULE_H */
