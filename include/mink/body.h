/* mink/body.h — bodies of any shape, turning or not, and the one query that takes any two. */
#ifndef MINK_BODY_H
#define MINK_BODY_H

#include "mink/capsule.h"
#include "mink/rotating.h"

/// The shape a mink_body holds. 0 is no shape: a zeroed body gives an INVALID result.
enum {
    MINK_SHAPE_NONE = 0,
    MINK_SHAPE_AABB = 1,
    MINK_SHAPE_CIRCLE = 2,
    MINK_SHAPE_POLYGON = 3,
    MINK_SHAPE_CAPSULE = 4,
};

/// A moving shape of any kind, for mixed batches. 164 bytes (the polygon sets the size: batches
/// of boxes or circles alone are smaller and faster through their typed entry points).
typedef struct mink_body {
    uint32_t type;          ///< MINK_SHAPE_AABB, _CIRCLE, _POLYGON or _CAPSULE
    mink_vec2 velocity;     ///< units per unit of time; the step moves it by velocity·dt
    float angular_velocity; ///< radians per unit of time, counter-clockwise; a box turns about its
                            ///< centre, a polygon about its position, a capsule about the middle
                            ///< of its segment; a circle's is ignored
    union {
        mink_aabb aabb;     ///< at angle 0 at the start of the step
        mink_circle circle;
        mink_polygon polygon;
        mink_capsule capsule; ///< where it stands at the start of the step
    } shape;
} mink_body;

/// One record of a mixed or rotating batch: any two bodies, in either order. 328 bytes.
typedef struct mink_pair {
    mink_body a, b;
} mink_pair;

/// A ray: the segment from origin to origin + translation, cast as a point moving along it.
typedef struct mink_ray {
    mink_vec2 origin;
    mink_vec2 translation;
} mink_ray;

/// One record of a ray batch: a ray and the body it is cast against, where the body is at the
/// start of its step (its velocity and angular velocity are not used). 180 bytes.
typedef struct mink_ray_cast {
    mink_ray ray;
    mink_body body;
} mink_ray_cast;

#if !defined(__OPENCL_C_VERSION__) && !defined(__OPENCL_VERSION__)
#ifdef __cplusplus
extern "C" {
#endif

/// Every byte defined (the union is as large as a polygon), so records can be hashed, compared or
/// written out.
mink_body mink_body_zero(uint32_t type, mink_vec2 v);

/// A body holding a box, moving with velocity v, not turning.
mink_body mink_body_aabb(mink_aabb box, mink_vec2 v);

/// A body holding a circle, moving with velocity v.
mink_body mink_body_circle(mink_circle c, mink_vec2 v);

/// A body holding a polygon (from mink_polygon_make), moving with velocity v, not turning.
mink_body mink_body_polygon(mink_polygon p, mink_vec2 v);

/// A body holding a capsule, moving with velocity v, not turning.
mink_body mink_body_capsule(mink_capsule c, mink_vec2 v);

int mink_body_is_valid(mink_body b);

/// Swept test for any two bodies that may turn: box, circle, polygon or capsule, with linear and angular
/// velocity, over a step of dt (finite, >= 0), by conservative advancement (the method: mink_advance in core/rotating.h).
///   - Overlapping at t = 0: the exact discrete result (OVERLAP, minimum translation vector).
///   - Otherwise CONTACT at a time t no later than the true first contact, at which the shapes are
///     at most `target` apart (desc.target, or by default 1/1024 of the sum of both shapes'
///     reach plus radius); none when they never come that close while closing in. A pass within
///     the target but never within half of it may answer either way: an advance stops at least
///     half the target short of the shapes.
///   - The cap reached: CONTACT | MINK_HIT_NOT_CONVERGED, with t the latest time known to be safe.
///   - t_exit is not computed: INFINITY.
/// *iterations (may be NULL) receives the number of advances made: the first may be to where the
/// shapes' bounding disks meet, and there are none when those never meet. A negative or non-finite
/// target, or an angle beyond ±MINK_MAX_ANGLE during the step, gives INVALID.
mink_hit mink_sweep_rotating(mink_body a, mink_body b, float dt, mink_rotating_desc desc, uint32_t *iterations);

/// Any two bodies: the exact sweeps when neither turns, conservative advancement with the default
/// parameters when one does.
mink_hit mink_sweep_bodies(mink_body a, mink_body b, float dt);

/// A ray cast against a body as it stands: the point at ray.origin swept by ray.translation (a
/// zero-size box, so every rule of the sweeps holds). CONTACT when the point enters the body's
/// interior at t in [0, 1): t is that fraction of the translation, normal the body's outward
/// normal there (towards the ray), point where the ray meets the body's boundary, t_exit where
/// it leaves. A ray that only grazes an edge or a corner, or ends exactly on the boundary, has no
/// contact. A ray starting inside: OVERLAP, t 0, normal and depth the shortest way out.
mink_hit mink_cast_ray(mink_ray ray, mink_body body);

#ifdef __cplusplus
}
#endif
#endif

#endif /* MINK_BODY_H */
