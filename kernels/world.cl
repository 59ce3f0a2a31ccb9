/* kernels/world.cl — a world step's passes: one item of core/step.h per work-item.
 * Every pass kernel has the same parameters: the world's arrays in MINK_WORLD_ARRAYS's order,
 * then the step's state (mink_step_state) by value, so the host binds them the same way for all
 * and neither side lists them. The math and the logic are all in the header, which the scalar
 * world calls in loops. Global sizes are rounded up to whole work-groups, so every kernel first
 * drops the items past its count. The scan, sort and transfer kernels below them are helpers over
 * any array, with their own short parameter lists. */

#pragma OPENCL FP_CONTRACT OFF

#include "core/parts.h"
#include "core/step.h"

#define MINK_WORLD_PARAM(NAME, field, type) __global type *field,
#define MINK_WORLD_ARG(NAME, field, type) field,
#define MINK_VIEW_SET(NAME, field, type) v.field = field;
/* A pass kernel of part p (core/parts.h). Its body is a function the kernel calls only in that
 * part's build, so the other builds never compile what it calls. */
#define MINK_PART_PASS_KERNEL(p, name) MINK_PART_PASS_KERNEL_AS(p, name, )
#define MINK_PART_PASS_KERNEL_AS(p, name, attr)                                                    \
    static void name##_body(MINK_WORLD_ARRAYS(MINK_WORLD_PARAM) mink_step_state s);                \
    __kernel attr void name(MINK_WORLD_ARRAYS(MINK_WORLD_PARAM) mink_step_state s) {               \
        if (MINK_IN_PART(p)) name##_body(MINK_WORLD_ARRAYS(MINK_WORLD_ARG) s);                     \
    }                                                                                              \
    static void name##_body(MINK_WORLD_ARRAYS(MINK_WORLD_PARAM) mink_step_state s)
#define MINK_PASS_KERNEL(name) MINK_PART_PASS_KERNEL(MINK_PART_WORLD, name)
/* The view of the arrays, and the item this work-item takes (past `items`: none). */
#define MINK_PASS_VIEW(items)                                                                      \
    uint item = get_global_id(0);                                                                  \
    if (item >= (items)) return;                                                                   \
    mink_world_view v;                                                                             \
    v.count = s.slots;                                                                             \
    MINK_WORLD_ARRAYS(MINK_VIEW_SET)                                                               \
    v.event_capacity = s.event_capacity

MINK_PASS_KERNEL(mink_world_bounds_kernel) {
    MINK_PASS_VIEW(s.slots);
    mink_bounds_item(v, s, item);
}

/* The measure: per block of bodies, then the blocks merged. */
MINK_PASS_KERNEL(mink_measure_kernel) {
    MINK_PASS_VIEW(s.blocks);
    mink_measure_block(v, item, s.blocks, partial);
}

MINK_PASS_KERNEL(mink_measure_top_kernel) {
    MINK_PASS_VIEW(1u);
    mink_measure_top(s.blocks, partial, measure);
}

/* cells[i] = slot i's grid entries; then (scanned) where they start. cells[slots + 1], zeroed
 * before, counts the large slots. */
MINK_PASS_KERNEL(mink_grid_count_kernel) {
    MINK_PASS_VIEW(s.slots);
    int large;
    cells[item] = mink_grid_count_item(v, s.grid, item, &large);
    if (large) MINK_ATOMIC_INC(&cells[s.slots + 1u]);
}

MINK_PASS_KERNEL(mink_grid_emit_kernel) {
    MINK_PASS_VIEW(s.slots);
    mink_grid_emit_item(v, s.grid, item);
}

MINK_PASS_KERNEL(mink_grid_gather_kernel) {
    MINK_PASS_VIEW(s.entries);
    mink_grid_gather_item(v, item);
}

/* Items [0, entries) take a sorted entry each, [entries, items) a slot each (its pairs with the
 * large bodies; there are none past entries when no body is large). emit 0: found[item] = its pairs. emit 1: writes
 * them from found[item] (scanned); an item that found none has nothing to do. */
MINK_PASS_KERNEL(mink_grid_pairs_kernel) {
    MINK_PASS_VIEW(s.items);
    uint r = item;
    if (s.emit && found[r + 1u] == found[r]) return;
    if (r < s.entries && s.emit)
        mink_grid_pairs_write(v, s.grid, s.entries, r, found[r]);
    else if (r < s.entries)
        found[r] = mink_grid_pairs_count(v, s.grid, s.entries, r);
    else if (s.emit)
        mink_large_pairs_item(v, s.grid, s.entries, cells[s.slots + 1u], r - s.entries, 1, found[r]);
    else
        found[r] = mink_large_pairs_item(v, s.grid, s.entries, cells[s.slots + 1u], r - s.entries, 0, 0u);
}

MINK_PASS_KERNEL(mink_world_degree_kernel) {
    MINK_PASS_VIEW(s.pairs);
    mink_degree_item(v, item);
}

/* The passes that sweep are built three times, each in its own part: for boxes and circles
 * (hulls 0, a literal, so the polygon and capsule sweeps are left out of the code), with polygons,
 * and with polygons and capsules; the host takes the least that holds the world's shapes. With
 * sweeps inlined, even never called, the kernels ran markedly slower on PoCL (docs/benchmarks.md,
 * "Figures behind the code", and "Capsules in worlds"). */
#define MINK_SHAPES_PASS_KERNEL(p, name, items, item_fn, hulls_, attr)                             \
    MINK_PART_PASS_KERNEL_AS(p, name, attr) {                                                      \
        MINK_PASS_VIEW(items);                                                                     \
        mink_step_state st = s;                                                                    \
        st.params.hulls = hulls_;                                                                  \
        item_fn(v, st, item);                                                                      \
    }
/* p: MINK_PART_WORLD or MINK_PART_QUERY, whose _POLYGONS and _HULLS parts follow it. */
#define MINK_SHAPES_PASS_KERNELS_AS(p, name, items, item_fn, attr)                                 \
    MINK_SHAPES_PASS_KERNEL(p, name##_kernel, items, item_fn, 0u, attr)                            \
    MINK_SHAPES_PASS_KERNEL(p##_POLYGONS, name##_polygons_kernel, items, item_fn, MINK_HULLS_POLYGONS, attr) \
    MINK_SHAPES_PASS_KERNEL(p##_HULLS, name##_hulls_kernel, items, item_fn, MINK_HULLS_ALL, attr)
#define MINK_SHAPES_PASS_KERNELS(p, name, items, item_fn) MINK_SHAPES_PASS_KERNELS_AS(p, name, items, item_fn, )
MINK_SHAPES_PASS_KERNELS(MINK_PART_WORLD, mink_world_narrow, s.pairs, mink_narrow_item)
/* The first pick runs over every slot, the others (and the sweeps before them) over the bodies it
 * listed. */
MINK_SHAPES_PASS_KERNELS(MINK_PART_WORLD, mink_world_resweep, s.listed, mink_resweep_item)
MINK_SHAPES_PASS_KERNELS(MINK_PART_WORLD, mink_world_pick, s.round == 0u ? s.slots : s.listed, mink_pick_item)
MINK_SHAPES_PASS_KERNELS(MINK_PART_WORLD, mink_world_resolve, s.slots, mink_resolve_item)
MINK_SHAPES_PASS_KERNELS(MINK_PART_WORLD, mink_world_safety, s.pairs, mink_safety_item)
/* A short list's impulse rounds, all in one work-item on a CPU device (core/solve.h), built for
 * a work-group of one: no idle items beside it. A GPU, where one work-item is slow, never runs
 * it, and its build leaves the body out (LLVM's NVPTX back end would compile the rounds' sweeps
 * once more). Unset (a check of the whole source): built. */
#ifndef MINK_CPU_DEVICE
#define MINK_CPU_DEVICE 1
#endif
#if MINK_CPU_DEVICE
#define MINK_IMPULSE_ROUNDS_ITEM mink_impulse_rounds_item
#define MINK_SAFETY_ROUNDS_ITEM mink_safety_rounds_item
#else
#define MINK_IMPULSE_ROUNDS_ITEM(v, s, k) ((void)(v), (void)(s), (void)(k))
#define MINK_SAFETY_ROUNDS_ITEM(v, s, k) ((void)(v), (void)(s), (void)(k))
#endif
MINK_SHAPES_PASS_KERNELS_AS(MINK_PART_WORLD, mink_world_impulse_rounds, 1u, MINK_IMPULSE_ROUNDS_ITEM,
                            __attribute__((reqd_work_group_size(1, 1, 1))))
/* The safety rounds after the first, the same way, where their pairs are few. */
MINK_SHAPES_PASS_KERNELS_AS(MINK_PART_WORLD, mink_world_safety_rounds, 1u, MINK_SAFETY_ROUNDS_ITEM,
                            __attribute__((reqd_work_group_size(1, 1, 1))))

/* A world query call: the boxes of the bodies it sees, then each query's walk (core/query.h). A
 * world that is only stepped never builds them. */
MINK_PART_PASS_KERNEL(MINK_PART_QUERY, mink_query_bounds_kernel) {
    MINK_PASS_VIEW(s.slots);
    mink_query_bounds_item(v, s, item);
}
MINK_SHAPES_PASS_KERNELS(MINK_PART_QUERY, mink_query, s.query.count, mink_query_item)
MINK_SHAPES_PASS_KERNELS(MINK_PART_QUERY, mink_query_move, s.query.count, mink_query_move_item)

/* The impulse rounds' second half and the safety rounds' other passes sweep nothing: one build each. */
MINK_PASS_KERNEL(mink_world_fire_kernel) {
    MINK_PASS_VIEW(s.listed);
    mink_fire_item(v, s, item);
}

MINK_PASS_KERNEL(mink_world_final_bounds_kernel) {
    MINK_PASS_VIEW(s.slots);
    mink_final_bounds_item(v, s, item);
}

MINK_PASS_KERNEL(mink_world_place_kernel) {
    MINK_PASS_VIEW(s.listed);
    mink_place_item(v, s, item);
}

/* The bodies renumbered by place (host/world_order.c): their keys, then, sorted, their motion. */
MINK_PASS_KERNEL(mink_order_key_kernel) {
    MINK_PASS_VIEW(s.slots);
    mink_order_key_item(v, s.grid, item);
}

MINK_PASS_KERNEL(mink_order_gather_kernel) {
    MINK_PASS_VIEW(s.slots);
    mink_order_gather_item(v, item);
}

/* ---- helpers over any array (in the world's part; the transfers are a loop each) ------------- */

__kernel void mink_radix_count_kernel(__global const uint *keys, __global uint *counts, uint n, uint shift,
                                      uint blocks) {
    uint g = get_global_id(0);
    if (MINK_IN_PART(MINK_PART_WORLD) && g < blocks) mink_radix_count_block(g, blocks, n, shift, keys, counts);
}

__kernel void mink_radix_scatter_kernel(__global const uint *keys, __global const uint *vals,
                                        __global const uint *offsets, __global uint *keys_out,
                                        __global uint *vals_out, uint n, uint shift, uint blocks) {
    uint g = get_global_id(0);
    if (MINK_IN_PART(MINK_PART_WORLD) && g < blocks) mink_radix_scatter_block(g, blocks, n, shift, keys, vals, offsets, keys_out, vals_out);
}

__kernel void mink_scan_sum_kernel(__global const uint *a, __global uint *sums, uint n, uint blocks) {
    uint g = get_global_id(0);
    if (MINK_IN_PART(MINK_PART_WORLD) && g < blocks) mink_scan_sum_block(g, blocks, n, a, sums);
}

__kernel void mink_scan_top_kernel(__global uint *sums, uint blocks) {
    if (MINK_IN_PART(MINK_PART_WORLD) && get_global_id(0) == 0) mink_scan_top(blocks, sums);
}

__kernel void mink_scan_apply_kernel(__global uint *a, __global const uint *sums, uint n, uint blocks) {
    uint g = get_global_id(0);
    if (MINK_IN_PART(MINK_PART_WORLD) && g < blocks) mink_scan_apply_block(g, blocks, n, a, sums);
}

/* Bodies in and out: stage holds n handles, then n values of `words` 32-bit words each from
 * word `at`. */
__kernel void mink_world_scatter_kernel(__global uint *dst, __global const uint *stage, uint n, uint words,
                                        uint at) {
    uint k = get_global_id(0);
    if (k >= n) return;
    uint h = stage[k];
    for (uint w = 0; w < words; w++) dst[h * words + w] = stage[at + k * words + w];
}

__kernel void mink_world_gather_kernel(__global const uint *src, __global uint *stage, uint n, uint words,
                                       uint at) {
    uint k = get_global_id(0);
    if (k >= n) return;
    uint h = stage[k];
    for (uint w = 0; w < words; w++) stage[at + k * words + w] = src[h * words + w];
}

/* The device's sizes of the world's records, checked against the host's like mink_layout_kernel. */
__kernel void mink_world_layout_kernel(__global uint *sizes) {
    sizes[0] = sizeof(mink_shape);
    sizes[1] = sizeof(mink_body_props);
    sizes[2] = sizeof(mink_event);
    sizes[3] = sizeof(mink_world_pair);
    sizes[4] = sizeof(mink_grid_entry);
    sizes[5] = sizeof(mink_contact);
    sizes[6] = sizeof(mink_step_state);
    sizes[7] = sizeof(mink_solve_body);
    sizes[8] = sizeof(mink_place);
    sizes[9] = sizeof(mink_world_query);
    sizes[10] = sizeof(mink_world_hit);
    sizes[11] = sizeof(mink_world_move);
    sizes[12] = sizeof(mink_solve_motion);
}
