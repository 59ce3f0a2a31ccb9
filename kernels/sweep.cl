/* kernels/sweep.cl — batch kernels: load one record, call the shared query, store one hit.
 * The math is in mink/body.h and the headers it includes, inlined here at build time; nothing is
 * computed in this file. */

/* No fused multiply-add: the scalar path computes a*b+c with two roundings, so must we. */
#pragma OPENCL FP_CONTRACT OFF

#include "mink/body.h"

/* One work-item per record. The global size is rounded up to a whole number of work-groups, so
 * work-items past n do nothing. */
#define MINK_SWEEP_KERNEL(name, record, query)                                                     \
    __kernel void name(__global const record *in, __global mink_hit *hits, uint n, float dt) {     \
        size_t i = get_global_id(0);                                                               \
        if (i < n) hits[i] = query(in[i], dt);                                                     \
    }

MINK_SWEEP_KERNEL(mink_sweep_aabb_kernel, mink_aabb_pair, mink_sweep_aabb_record)
MINK_SWEEP_KERNEL(mink_sweep_circle_kernel, mink_circle_pair, mink_sweep_circle_record)
MINK_SWEEP_KERNEL(mink_sweep_circle_aabb_kernel, mink_circle_aabb_pair, mink_sweep_circle_aabb_record)
MINK_SWEEP_KERNEL(mink_sweep_polygon_kernel, mink_polygon_pair, mink_sweep_polygon_record)
MINK_SWEEP_KERNEL(mink_sweep_polygon_aabb_kernel, mink_polygon_aabb_pair, mink_sweep_polygon_aabb_record)
MINK_SWEEP_KERNEL(mink_sweep_polygon_circle_kernel, mink_polygon_circle_pair, mink_sweep_polygon_circle_record)
MINK_SWEEP_KERNEL(mink_sweep_pair_kernel, mink_pair, mink_sweep_pair_record)

/* The rotating query takes its parameters as two more arguments. */
__kernel void mink_sweep_rotating_kernel(__global const mink_pair *in, __global mink_hit *hits, uint n,
                                         float dt, float target, uint max_iterations) {
    size_t i = get_global_id(0);
    mink_rotating_desc desc;
    desc.target = target;
    desc.max_iterations = max_iterations;
    if (i < n) hits[i] = mink_sweep_rotating_record(in[i], dt, desc);
}

/* Box pairs as columns (mink_batch_sweep_aabb_soa): one array per field in and out. The query is
 * branch-free, so a CPU implementation can run a work-group's items in SIMD lanes. */
__kernel void mink_sweep_aabb_soa_kernel(__global const float *a_min_x, __global const float *a_min_y,
                                         __global const float *a_max_x, __global const float *a_max_y,
                                         __global const float *va_x, __global const float *va_y,
                                         __global const float *b_min_x, __global const float *b_min_y,
                                         __global const float *b_max_x, __global const float *b_max_y,
                                         __global const float *vb_x, __global const float *vb_y,
                                         __global float *t, __global float *normal_x, __global float *normal_y,
                                         __global float *depth, __global float *point_x, __global float *point_y,
                                         __global float *t_exit, __global uint *flags, uint n, float dt) {
    size_t i = get_global_id(0);
    if (i < n)
        MINK_SWEEP_AABB_COLUMN(i, dt, a_min_x, a_min_y, a_max_x, a_max_y, va_x, va_y, b_min_x, b_min_y, b_max_x,
                               b_max_y, vb_x, vb_y, t, normal_x, normal_y, depth, point_x, point_y, t_exit, flags);
}

/* The device's sizes of the shared records, checked against the host's when a context is made:
 * a compiler that laid them out differently would read garbage, not fail. */
__kernel void mink_layout_kernel(__global uint *sizes) {
    sizes[0] = sizeof(mink_hit);
    sizes[1] = sizeof(mink_aabb_pair);
    sizes[2] = sizeof(mink_circle_pair);
    sizes[3] = sizeof(mink_circle_aabb_pair);
    sizes[4] = sizeof(mink_pair);
    sizes[5] = sizeof(mink_polygon_pair);
    sizes[6] = sizeof(mink_polygon_aabb_pair);
    sizes[7] = sizeof(mink_polygon_circle_pair);
}
