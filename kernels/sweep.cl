/* kernels/sweep.cl — batch kernels: load one record, call the shared query, store one hit.
 * The math is in core/body.h and the headers it includes, inlined here at build time; nothing is
 * computed in this file. */

/* No fused multiply-add: the scalar path computes a*b+c with two roundings, so must we. */
#pragma OPENCL FP_CONTRACT OFF

#include "core/body.h"
#include "core/parts.h"

/* The kernels the table generates (core/kinds.h): one work-item per record. The global size is
 * rounded up to a whole number of work-groups, so work-items past n do nothing. The turning
 * query takes its parameters as two more arguments. RUN kernels are written out below. Each
 * kernel's body is compiled only in its kind's build (core/parts.h). */
#define MINK_SWEEP_KERNEL_ONE(KIND, kind, record, query)                                           \
    __kernel void mink_sweep_##kind##_kernel(__global const record *in, __global mink_hit *hits, uint n, float dt) { \
        size_t i = get_global_id(0);                                                               \
        if (MINK_IN_PART(MINK_PART_##KIND)) {                                                      \
            if (i < n) hits[i] = query(in[i], dt);                                                 \
        }                                                                                          \
    }
#define MINK_SWEEP_KERNEL_TURNING(KIND, kind, record, query)                                       \
    __kernel void mink_sweep_##kind##_kernel(__global const record *in, __global mink_hit *hits, uint n, float dt, \
                                             float target, uint max_iterations) {                  \
        size_t i = get_global_id(0);                                                               \
        mink_rotating_desc desc;                                                                   \
        desc.target = target;                                                                      \
        desc.max_iterations = max_iterations;                                                      \
        if (MINK_IN_PART(MINK_PART_##KIND)) {                                                      \
            if (i < n) hits[i] = query(in[i], dt, desc);                                           \
        }                                                                                          \
    }
#define MINK_SWEEP_KERNEL_RUN(KIND, kind, record, query)
#define MINK_KIND_KERNEL(KIND, kind, function, record, arrays, query, kernel, scalar, sample, sample_pairs) \
    MINK_SWEEP_KERNEL_##kernel(KIND, kind, record, query)
MINK_BATCH_KINDS(MINK_KIND_KERNEL)

/* Columns, and box, circle and circle–box records: a work-item sweeps a run of MINK_RUN consecutive
 * pairs (the host sets it: 64 on a CPU device, where the loop over the run is what gets vectorized
 * — see host/program.c — and 1 on a GPU). The queries are branch-free, so the loop needs no masks. */
#ifndef MINK_RUN
#define MINK_RUN 1
#endif
#define MINK_RUN_RANGE(n)                                                                          \
    size_t begin = get_global_id(0) * MINK_RUN;                                                    \
    size_t end = min(begin + MINK_RUN, (size_t)(n))

/* Pairs as columns (mink_batch_sweep_aabb_soa, _circle_soa, _circle_aabb_soa): one array per field
 * in, mink_hit_soa's 8 out. */
#define MINK_HIT_COLUMNS                                                                           \
    __global float *restrict t, __global float *restrict normal_x, __global float *restrict normal_y, \
        __global float *restrict depth, __global float *restrict point_x,                         \
        __global float *restrict point_y, __global float *restrict t_exit, __global uint *restrict flags
#define MINK_HIT_COLUMN_NAMES t, normal_x, normal_y, depth, point_x, point_y, t_exit, flags

__kernel void mink_sweep_aabb_soa_kernel(
    __global const float *restrict a_min_x, __global const float *restrict a_min_y,
    __global const float *restrict a_max_x, __global const float *restrict a_max_y,
    __global const float *restrict va_x, __global const float *restrict va_y,
    __global const float *restrict b_min_x, __global const float *restrict b_min_y,
    __global const float *restrict b_max_x, __global const float *restrict b_max_y,
    __global const float *restrict vb_x, __global const float *restrict vb_y, MINK_HIT_COLUMNS, uint n, float dt) {
    if (!MINK_IN_PART(MINK_PART_AABB_SOA)) return;
    MINK_RUN_RANGE(n);
    for (size_t i = begin; i < end; i++)
        MINK_SWEEP_AABB_COLUMN(i, dt, a_min_x, a_min_y, a_max_x, a_max_y, va_x, va_y, b_min_x, b_min_y, b_max_x,
                               b_max_y, vb_x, vb_y, MINK_HIT_COLUMN_NAMES);
}

__kernel void mink_sweep_circle_soa_kernel(
    __global const float *restrict a_x, __global const float *restrict a_y, __global const float *restrict a_radius,
    __global const float *restrict va_x, __global const float *restrict va_y, __global const float *restrict b_x,
    __global const float *restrict b_y, __global const float *restrict b_radius, __global const float *restrict vb_x,
    __global const float *restrict vb_y, MINK_HIT_COLUMNS, uint n, float dt) {
    if (!MINK_IN_PART(MINK_PART_CIRCLE_SOA)) return;
    MINK_RUN_RANGE(n);
    /* The roots of the run, then its answers (core/circle.h says why in two loops). */
    float t0[MINK_RUN], t1[MINK_RUN], roots[MINK_RUN];
    /* 16 circles an instruction where the CPU has AVX-512: PoCL 3's LLVM prefers 8 (256-bit
     * vectors) for it and has no option to change that, but honours the loop's own request
     * (faster, the same bits: docs/benchmarks.md, "Figures behind the code"). So do circle
     * records and circle–box pairs, whose math outweighs their memory traffic too; boxes, bound by
     * memory, keep 8. A GPU runs one pair per work-item and has no loop to widen. */
#if MINK_RUN > 1 && defined(__clang__)
#pragma clang loop vectorize_width(16)
#endif
    for (size_t i = begin; i < end; i++)
        MINK_CIRCLE_COLUMN_ROOTS(i, i - begin, dt, a_x, a_y, a_radius, va_x, va_y, b_x, b_y, b_radius, vb_x, vb_y,
                                 t0, t1, roots);
#if MINK_RUN > 1 && defined(__clang__)
#pragma clang loop vectorize_width(16)
#endif
    for (size_t i = begin; i < end; i++)
        MINK_CIRCLE_COLUMN_ANSWER(i, i - begin, dt, a_x, a_y, a_radius, va_x, va_y, b_x, b_y, b_radius, vb_x, vb_y,
                                  t0, t1, roots, MINK_HIT_COLUMN_NAMES);
}

/* A run of circle–box pairs is swept side by side, every case computed (core/circle.h); one pair
 * per work-item (a GPU) skips the pairs that never reach the box and answers by face those that
 * can (mink__sweep_circle_aabb): the same bits. */
#if MINK_RUN > 1
#define MINK_CIRCLE_AABB_SWEEP mink_sweep_circle_aabb_inline
#else
#define MINK_CIRCLE_AABB_SWEEP mink__sweep_circle_aabb
#endif

__kernel void mink_sweep_circle_aabb_soa_kernel(
    __global const float *restrict a_x, __global const float *restrict a_y, __global const float *restrict a_radius,
    __global const float *restrict va_x, __global const float *restrict va_y,
    __global const float *restrict b_min_x, __global const float *restrict b_min_y,
    __global const float *restrict b_max_x, __global const float *restrict b_max_y,
    __global const float *restrict vb_x, __global const float *restrict vb_y, MINK_HIT_COLUMNS, uint n, float dt) {
    if (!MINK_IN_PART(MINK_PART_CIRCLE_AABB_SOA)) return;
    MINK_RUN_RANGE(n);
#if MINK_RUN > 1 && defined(__clang__)
#pragma clang loop vectorize_width(16)
#endif
    for (size_t i = begin; i < end; i++)
        MINK_SWEEP_CIRCLE_AABB_COLUMN(MINK_CIRCLE_AABB_SWEEP, i, dt, a_x, a_y, a_radius, va_x, va_y, b_min_x, b_min_y,
                                      b_max_x, b_max_y, vb_x, vb_y, MINK_HIT_COLUMN_NAMES);
}

/* A record kernel's start: nothing outside its part; its run of pairs (begin, end); the records
 * in as floats (r) and the hits out (h). */
#define MINK_RECORD_RUN(part)                                                                      \
    if (!MINK_IN_PART(part)) return;                                                               \
    MINK_RUN_RANGE(n);                                                                             \
    __global const float *r = (__global const float *)in;                                          \
    __global float *h = (__global float *)hits

/* Hit x of record i into h, the hits as floats, a float at a time (a hit is 7 floats and the
 * flags): the record kernels below, whose loops a whole-struct store would keep from vectorizing. */
#define MINK_STORE_HIT_RECORD(h_, i_, x_)                                                          \
    do {                                                                                           \
        (h_)[8 * (i_)] = (x_).t, (h_)[8 * (i_) + 1] = (x_).normal.x, (h_)[8 * (i_) + 2] = (x_).normal.y; \
        (h_)[8 * (i_) + 3] = (x_).depth, (h_)[8 * (i_) + 4] = (x_).point.x, (h_)[8 * (i_) + 5] = (x_).point.y; \
        (h_)[8 * (i_) + 6] = (x_).t_exit;                                                          \
        ((__global uint *)(h_))[8 * (i_) + 7] = (x_).flags;                                        \
    } while (0)

/* Box records, a run per work-item, a float at a time (as circle records, below). */
__kernel void mink_sweep_aabb_kernel(__global const mink_aabb_pair *restrict in, __global mink_hit *restrict hits,
                                     uint n, float dt) {
    MINK_RECORD_RUN(MINK_PART_AABB); /* a record is 12 floats: a, va, b, vb */
    for (size_t i = begin; i < end; i++) {
        mink_aabb a, b;
        a.min = mink_v2(r[12 * i], r[12 * i + 1]);
        a.max = mink_v2(r[12 * i + 2], r[12 * i + 3]);
        b.min = mink_v2(r[12 * i + 6], r[12 * i + 7]);
        b.max = mink_v2(r[12 * i + 8], r[12 * i + 9]);
        mink_hit x = mink__sweep_aabb(a, mink_v2(r[12 * i + 4], r[12 * i + 5]), b, mink_v2(r[12 * i + 10], r[12 * i + 11]),
                                      dt);
        MINK_STORE_HIT_RECORD(h, i, x);
    }
}

/* Circle records, a run per work-item, read and written a float at a time: a loop that loads or
 * stores whole records is not vectorized. In two loops, the roots then the answers, 16 pairs an
 * instruction, as circle columns (mink_sweep_circle_soa_kernel): the same bits as one. */
#define MINK_CIRCLE_RECORD(r_, i_)                                                                 \
    mink_circle a, b;                                                                              \
    a.center = mink_v2((r_)[10 * (i_)], (r_)[10 * (i_) + 1]);                                      \
    a.radius = (r_)[10 * (i_) + 2];                                                                \
    b.center = mink_v2((r_)[10 * (i_) + 5], (r_)[10 * (i_) + 6]);                                  \
    b.radius = (r_)[10 * (i_) + 7];                                                                \
    mink_vec2 va = mink_v2((r_)[10 * (i_) + 3], (r_)[10 * (i_) + 4]);                              \
    mink_vec2 vb = mink_v2((r_)[10 * (i_) + 8], (r_)[10 * (i_) + 9])
__kernel void mink_sweep_circle_kernel(__global const mink_circle_pair *restrict in, __global mink_hit *restrict hits,
                                       uint n, float dt) {
    MINK_RECORD_RUN(MINK_PART_CIRCLE); /* a record is 10 floats: a, va, b, vb */
    float t0[MINK_RUN], t1[MINK_RUN], roots[MINK_RUN];
#if MINK_RUN > 1 && defined(__clang__)
#pragma clang loop vectorize_width(16)
#endif
    for (size_t i = begin; i < end; i++) {
        MINK_CIRCLE_RECORD(r, i);
        float u0, u1;
        roots[i - begin] = mink_sweep_circle_roots(a, va, b, vb, dt, &u0, &u1);
        t0[i - begin] = u0;
        t1[i - begin] = u1;
    }
#if MINK_RUN > 1 && defined(__clang__)
#pragma clang loop vectorize_width(16)
#endif
    for (size_t i = begin; i < end; i++) {
        MINK_CIRCLE_RECORD(r, i);
        mink_hit x = mink_sweep_circle_answer(a, va, b, vb, dt, t0[i - begin], t1[i - begin], roots[i - begin]);
        MINK_STORE_HIT_RECORD(h, i, x);
    }
}

/* Circle–box records, as circle records: a run per work-item, a float at a time. */
__kernel void mink_sweep_circle_aabb_kernel(__global const mink_circle_aabb_pair *restrict in,
                                            __global mink_hit *restrict hits, uint n, float dt) {
    MINK_RECORD_RUN(MINK_PART_CIRCLE_AABB); /* a record is 11 floats: a, va, b, vb */
#if MINK_RUN > 1 && defined(__clang__)
#pragma clang loop vectorize_width(16)
#endif
    for (size_t i = begin; i < end; i++) {
        mink_circle a;
        mink_aabb b;
        a.center = mink_v2(r[11 * i], r[11 * i + 1]);
        a.radius = r[11 * i + 2];
        b.min = mink_v2(r[11 * i + 5], r[11 * i + 6]);
        b.max = mink_v2(r[11 * i + 7], r[11 * i + 8]);
        mink_hit x = MINK_CIRCLE_AABB_SWEEP(a, mink_v2(r[11 * i + 3], r[11 * i + 4]), b,
                                            mink_v2(r[11 * i + 9], r[11 * i + 10]), dt);
        MINK_STORE_HIT_RECORD(h, i, x);
    }
}

/* The device's sizes of the shared records, checked against the host's when a context is made:
 * a compiler that laid them out differently would read garbage, not fail. mink_hit, then each
 * kind's record in the table's order. */
#define MINK_KIND_SIZE(KIND, kind, function, record, arrays, query, kernel, scalar, sample, sample_pairs) \
    sizes[k++] = sizeof(record);
__kernel void mink_layout_kernel(__global uint *sizes) {
    uint k = 0;
    sizes[k++] = sizeof(mink_hit);
    MINK_BATCH_KINDS(MINK_KIND_SIZE)
}
