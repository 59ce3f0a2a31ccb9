/* kernels/sweep.cl — batch kernels: load one record, call the shared query, store one hit.
 * The math is in mink/geom.h, inlined here at build time; nothing is computed in this file. */

/* No fused multiply-add: the scalar path computes a*b+c with two roundings, so must we. */
#pragma OPENCL FP_CONTRACT OFF

#include "mink/geom.h"

/* One work-item per pair. The global size is rounded up to the device's preferred multiple, so
 * work-items past n do nothing. */
__kernel void mink_sweep_aabb_kernel(__global const mink_aabb_pair *pairs, __global mink_hit *hits,
                                     uint n, float dt) {
    size_t i = get_global_id(0);
    if (i >= n) return;
    mink_aabb_pair p = pairs[i];
    hits[i] = mink_sweep_aabb(p.a, p.va, p.b, p.vb, dt);
}
