/* bench/peer_box2d.h — Box2D 2.4's time of impact, called from C on mink's own records. */
#ifndef MINK_PEER_BOX2D_H
#define MINK_PEER_BOX2D_H

#include "mink/mink.h"

#ifdef __cplusplus
extern "C" {
#endif

/// What b2TimeOfImpact said.
typedef enum peer_toi_state {
    PEER_TOI_FAILED,     ///< e_unknown or e_failed (its root finder gave up)
    PEER_TOI_OVERLAPPED, ///< already overlapping at t = 0
    PEER_TOI_TOUCHING,   ///< closer than its target separation at *t
    PEER_TOI_SEPARATED,  ///< no contact in the step
} peer_toi_state;

/// b2TimeOfImpact for two bodies over a step of dt (each turning about its position, a box about
/// its centre), with Box2D's own target separation (3 linear slops under the radii, at least one
/// slop: 0.005 for shapes without radius). The proxies are the bodies' own vertices.
peer_toi_state peer_box2d_toi(const mink_body *a, const mink_body *b, float dt, float *t);

/// A Box2D world of static boxes (half extents hx, hy) and circles (hx the radius, hy 0) at given
/// centres, for ray casts. NULL when out of memory.
typedef struct peer_box2d_world peer_box2d_world;
peer_box2d_world *peer_box2d_world_create(const float *x, const float *y, const float *hx, const float *hy,
                                          size_t count);
void peer_box2d_world_destroy(peer_box2d_world *w);

/// b2World::RayCast from (x, y) by (dx, dy), clipped to the closest fixture: 1 and *t, *body (the
/// body's index) on a hit, else 0.
int peer_box2d_world_ray(peer_box2d_world *w, float x, float y, float dx, float dy, float *t, size_t *body);

/// "Box2D 2.4.1" or the like.
const char *peer_box2d_version(void);

#ifdef __cplusplus
}
#endif

#endif /* MINK_PEER_BOX2D_H */
