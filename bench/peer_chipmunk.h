/* bench/peer_chipmunk.h — Chipmunk2D 7's nearest query to a swept pair, on mink's own records.
 *
 * Chipmunk has no time of impact between two moving shapes; what it has is a segment query with a
 * radius (cpShapeSegmentQuery): the first point along a segment where a disk of that radius
 * touches a shape. Relative motion makes that a swept pair: b stands still, a moves by
 * (va − vb)·dt. A circle a is the query's disk; a box a is a point swept against b grown by a's
 * half extents (their Minkowski sum, the same geometry mink's slab method uses). It gives the
 * fraction of the motion (alpha), a point and a normal. It does not give an exit time, a depth or
 * a penetration vector for pairs that already overlap, nor any word for invalid input; it works
 * in doubles. */
#ifndef MINK_PEER_CHIPMUNK_H
#define MINK_PEER_CHIPMUNK_H

#include "mink/mink.h"

typedef struct peer_chipmunk peer_chipmunk;

/// One box shape and one circle shape on a static body, reshaped for every query. NULL when out
/// of memory.
peer_chipmunk *peer_chipmunk_create(void);
void peer_chipmunk_destroy(peer_chipmunk *p);

/// a (a box or a circle) swept against b (a box or a circle) over dt: 1 and *t = alpha when the
/// segment query hits, else 0. Box against circle is not a segment query Chipmunk has: returns -1.
int peer_chipmunk_sweep(peer_chipmunk *p, const mink_body *a, const mink_body *b, float dt, float *t);

/// A space of static boxes (half extents hx, hy) and circles (hx the radius, hy 0) at given
/// centres, for segment queries. NULL when out of memory.
typedef struct peer_chipmunk_space peer_chipmunk_space;
peer_chipmunk_space *peer_chipmunk_space_create(const float *x, const float *y, const float *hx, const float *hy,
                                                size_t count);
void peer_chipmunk_space_destroy(peer_chipmunk_space *s);

/// cpSpaceSegmentQueryFirst from (x, y) by (dx, dy), radius 0: 1 and *t (alpha), *body (the
/// shape's index) on a hit, else 0.
int peer_chipmunk_space_ray(peer_chipmunk_space *s, float x, float y, float dx, float dy, float *t, size_t *body);

/// "Chipmunk 7.0.3" or the like.
const char *peer_chipmunk_version(void);

#endif /* MINK_PEER_CHIPMUNK_H */
