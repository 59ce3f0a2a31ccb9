/* host/scalar.c — the scalar path: the shared-header query in a plain loop, one per batch kind. */
#include "internal.h"

#define MINK_SCALAR_LOOP(name, record, query)                                                      \
    void name(const void *in, size_t count, float dt, const mink_rotating_desc *desc,               \
              mink_hit *restrict hits) {                                                           \
        const record *restrict records = in;                                                       \
        (void)desc;                                                                                \
        for (size_t i = 0; i < count; i++) hits[i] = query(records[i], dt);                        \
    }

MINK_SCALAR_LOOP(mink__scalar_sweep_aabb, mink_aabb_pair, mink_sweep_aabb_record)
MINK_SCALAR_LOOP(mink__scalar_sweep_circle, mink_circle_pair, mink_sweep_circle_record)
MINK_SCALAR_LOOP(mink__scalar_sweep_circle_aabb, mink_circle_aabb_pair, mink_sweep_circle_aabb_record)
MINK_SCALAR_LOOP(mink__scalar_sweep_polygon, mink_polygon_pair, mink_sweep_polygon_record)
MINK_SCALAR_LOOP(mink__scalar_sweep_polygon_aabb, mink_polygon_aabb_pair, mink_sweep_polygon_aabb_record)
MINK_SCALAR_LOOP(mink__scalar_sweep_polygon_circle, mink_polygon_circle_pair, mink_sweep_polygon_circle_record)
MINK_SCALAR_LOOP(mink__scalar_sweep_pair, mink_pair, mink_sweep_pair_record)

void mink__scalar_sweep_rotating(const void *in, size_t count, float dt, const mink_rotating_desc *desc,
                                 mink_hit *restrict hits) {
    const mink_pair *restrict records = in;
    for (size_t i = 0; i < count; i++) hits[i] = mink_sweep_rotating_record(records[i], dt, *desc);
}
