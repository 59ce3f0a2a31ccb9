/* mink/rotating.h — the parameters of conservative advancement, the query for turning shapes
 * (mink_sweep_rotating, mink/body.h). */
#ifndef MINK_ROTATING_H
#define MINK_ROTATING_H

#include "mink/polygon.h"

/// Parameters of conservative advancement. Zeroed fields mean defaults.
typedef struct mink_rotating_desc {
    float target;            ///< stop once the shapes are at most this far apart; 0: 1/1024 of the
                             ///< sum of both shapes' reach (bounding radius about their centres)
    uint32_t max_iterations; ///< advances before giving up with MINK_HIT_NOT_CONVERGED; 0: 64
} mink_rotating_desc;

#define MINK_ROTATING_DEFAULT_ITERATIONS 64u

#endif /* MINK_ROTATING_H */
