/* host/scalar.c — the scalar path: the shared-header query in a plain loop, one per batch kind. */
#include "internal.h"

#define MINK_SCALAR_LOOP(name, record, query)                                                      \
    void name(const void *in, size_t count, float dt, mink_hit *restrict hits) {                   \
        const record *restrict records = in;                                                       \
        for (size_t i = 0; i < count; i++) hits[i] = query(records[i], dt);                        \
    }

MINK_SCALAR_LOOP(mink__scalar_sweep_aabb, mink_aabb_pair, mink_sweep_aabb_record)
MINK_SCALAR_LOOP(mink__scalar_sweep_circle, mink_circle_pair, mink_sweep_circle_record)
MINK_SCALAR_LOOP(mink__scalar_sweep_circle_aabb, mink_circle_aabb_pair, mink_sweep_circle_aabb_record)
MINK_SCALAR_LOOP(mink__scalar_sweep_pair, mink_pair, mink_sweep_pair_record)
