/* host/scalar.c — the scalar path: the shared-header query in a plain loop. */
#include "internal.h"

void mink__scalar_sweep_aabb(const mink_aabb_pair *restrict pairs, size_t count, float dt,
                             mink_hit *restrict hits) {
    for (size_t i = 0; i < count; i++) {
        const mink_aabb_pair *p = &pairs[i];
        hits[i] = mink_sweep_aabb(p->a, p->va, p->b, p->vb, dt);
    }
}
