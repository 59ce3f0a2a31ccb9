/* mink/polygon.h — convex polygons: the shape, how to make one, and the single queries on them
 * (swept SAT for shapes that do not turn; turning ones are bodies, mink/body.h). */
#ifndef MINK_POLYGON_H
#define MINK_POLYGON_H

#include "mink/geom.h"

#define MINK_MAX_POLYGON_VERTICES 8
/// Angles (and, for rotating queries, angles reached during the step) beyond this many radians
/// either way give MINK_HIT_INVALID: the argument reduction of mink_sincosf is exact up to here.
#define MINK_MAX_ANGLE 65536.0f

/// A convex polygon: 3 to 8 vertices in local coordinates, counter-clockwise, placed at `position`
/// and turned by `angle` about it. Make one with mink_polygon_make, which checks the points and
/// fills in the derived fields; a polygon it refused has count 0 and gives MINK_HIT_INVALID in any
/// query. 148 bytes.
typedef struct mink_polygon {
    mink_vec2 vertices[MINK_MAX_POLYGON_VERTICES]; ///< local, counter-clockwise; unused ones are 0
    mink_vec2 normals[MINK_MAX_POLYGON_VERTICES];  ///< derived: unit outward normal of edge i → i+1
    mink_vec2 position;                            ///< where the local origin lies
    float angle;                                   ///< radians, counter-clockwise, about position
    float radius;                                  ///< derived: the largest |vertex|, whatever the angle
    uint32_t count;                                ///< 3..MINK_MAX_POLYGON_VERTICES; 0 = refused
} mink_polygon;

/// Why mink_polygon_make refused the points (MINK_POLYGON_OK when it did not).
typedef enum mink_polygon_check {
    MINK_POLYGON_OK = 0,
    MINK_POLYGON_TOO_FEW,       ///< fewer than 3 points
    MINK_POLYGON_TOO_MANY,      ///< more than MINK_MAX_POLYGON_VERTICES
    MINK_POLYGON_NOT_FINITE,    ///< a coordinate, the position or the angle is NaN or infinite
    MINK_POLYGON_ANGLE_RANGE,   ///< |angle| > MINK_MAX_ANGLE
    MINK_POLYGON_REPEATED,      ///< two points are the same
    MINK_POLYGON_CLOCKWISE,     ///< convex, but clockwise
    MINK_POLYGON_NOT_CONVEX,    ///< a reflex or straight corner, or edges that wind more than once
} mink_polygon_check;

/// One record of a polygon batch. 312 bytes.
typedef struct mink_polygon_pair {
    mink_polygon a;
    mink_vec2 va;
    mink_polygon b;
    mink_vec2 vb;
} mink_polygon_pair;

/// One record of a polygon–box batch: polygon a against box b. 180 bytes.
typedef struct mink_polygon_aabb_pair {
    mink_polygon a;
    mink_vec2 va;
    mink_aabb b;
    mink_vec2 vb;
} mink_polygon_aabb_pair;

/// One record of a polygon–circle batch: polygon a against circle b. 176 bytes.
typedef struct mink_polygon_circle_pair {
    mink_polygon a;
    mink_vec2 va;
    mink_circle b;
    mink_vec2 vb;
} mink_polygon_circle_pair;

#if !defined(__OPENCL_C_VERSION__) && !defined(__OPENCL_VERSION__)
#ifdef __cplusplus
extern "C" {
#endif

/// What every query checks of a polygon: the count, finite fields, the angle's range and the
/// shape. The derived fields (normals, radius) are taken as mink_polygon_make left them.
int mink_polygon_is_valid(mink_polygon p);

/// Makes a polygon from `count` points (local coordinates, counter-clockwise), placed at
/// `position` and turned by `angle`. Checks them (see mink_polygon_check), and fills in the
/// normals and the radius. On a refusal *out is all zeros (count 0: INVALID in any query) and the
/// reason is returned; mink_polygon_check_string puts it in words.
mink_polygon_check mink_polygon_make(const mink_vec2 *points, uint32_t count, mink_vec2 position, float angle, mink_polygon *out);

/// The reason in words, e.g. "not convex: a reflex or straight corner, or edges winding twice".
const char * mink_polygon_check_string(mink_polygon_check why);

/// Swept test: polygon a moves with va, polygon b with vb, neither turning, for a step of dt
/// (finite, >= 0). The method and the meanings: mink_hull_sweep in core/polygon.h.
mink_hit mink_sweep_polygon(mink_polygon a, mink_vec2 va, mink_polygon b, mink_vec2 vb, float dt);

/// Swept test: polygon a against box b. The box's fast path: two axes, exact projections, no
/// turning.
mink_hit mink_sweep_polygon_aabb(mink_polygon a, mink_vec2 va, mink_aabb b, mink_vec2 vb, float dt);

/// Swept test: polygon a against circle b: the circle–polygon hit seen from a (normal reversed).
mink_hit mink_sweep_polygon_circle(mink_polygon a, mink_vec2 va, mink_circle b, mink_vec2 vb, float dt);

/// Discrete tests: the sweeps without motion (t_exit INFINITY).
mink_hit mink_overlap_polygon(mink_polygon a, mink_polygon b);

mink_hit mink_overlap_polygon_aabb(mink_polygon a, mink_aabb b);

mink_hit mink_overlap_polygon_circle(mink_polygon a, mink_circle b);

#ifdef __cplusplus
}
#endif
#endif

#endif /* MINK_POLYGON_H */
