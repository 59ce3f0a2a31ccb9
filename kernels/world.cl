/* kernels/world.cl — a world step's passes: one item of core/step.h per work-item.
 * Each kernel fills the view with the arrays its pass uses; the math and the logic are all in the
 * header, which the scalar world calls in loops. Global sizes are rounded up to whole work-groups,
 * so every kernel first drops the items past its count. */

#pragma OPENCL FP_CONTRACT OFF

#include "core/step.h"

static mink_world_view mink_empty_view(uint count) {
    mink_world_view v;
    v.count = count;
    v.shapes = 0;
    v.shape_of = 0;
    v.props = 0;
    v.ids = 0;
    v.pos = v.vel = 0;
    v.bounds = 0;
    v.records = 0;
    v.measure = v.cells = 0;
    v.keys = v.order = 0;
    v.entries = 0;
    v.kept = 0;
    v.pairs = v.pair_entries = 0;
    v.adj_start = v.adj_fill = 0;
    v.contacts = 0;
    v.pos_out = v.vel_out = 0;
    v.events = 0;
    v.event_count = 0;
    v.event_capacity = 0u;
    return v;
}

/* A view of the bodies' arrays the sweeps read: shapes, positions and velocities. */
static mink_world_view mink_bodies_view(uint count, __global const mink_shape *shapes, __global const uint *shape_of,
                                        __global const mink_body_props *props, __global const mink_vec2 *pos,
                                        __global const mink_vec2 *vel) {
    mink_world_view v = mink_empty_view(count);
    v.shapes = shapes;
    v.shape_of = shape_of;
    v.props = props;
    v.pos = pos;
    v.vel = vel;
    return v;
}

static mink_step_params mink_params(float dt, float skin, uint iterations, uint polygons) {
    mink_step_params sp;
    sp.dt = dt;
    sp.skin = skin;
    sp.iterations = iterations;
    sp.polygons = polygons;
    return sp;
}

static mink_grid mink_grid_of(float ox, float oy, float inv_cell, uint width, uint height, uint crowd_category,
                              uint crowd_mask, uint crowd_flags) {
    mink_grid g;
    g.origin = mink_v2(ox, oy);
    g.inv_cell = inv_cell;
    g.width = width;
    g.height = height;
    g.crowd_category = crowd_category;
    g.crowd_mask = crowd_mask;
    g.crowd_flags = crowd_flags;
    return g;
}
#define MINK_GRID_ARGS                                                                             \
    float ox, float oy, float inv_cell, uint width, uint height, uint crowd_category, uint crowd_mask, uint crowd_flags
#define MINK_GRID mink_grid_of(ox, oy, inv_cell, width, height, crowd_category, crowd_mask, crowd_flags)

__kernel void mink_world_bounds_kernel(__global const mink_shape *shapes, __global const uint *shape_of,
                                       __global const mink_body_props *props, __global const mink_vec2 *pos,
                                       __global const mink_vec2 *vel, __global mink_aabb *bounds,
                                       __global mink_grid_entry *records, uint count, float dt, float skin) {
    uint i = get_global_id(0);
    if (i >= count) return;
    mink_world_view v = mink_bodies_view(count, shapes, shape_of, props, pos, vel);
    v.bounds = bounds;
    v.records = records;
    mink_bounds_item(v, mink_params(dt, skin, 1u, 1u), i);
}

__kernel void mink_measure_kernel(__global const mink_aabb *bounds, __global const uint *shape_of,
                                  __global uint *partial, uint count, uint blocks) {
    uint g = get_global_id(0);
    if (g >= blocks) return;
    mink_world_view v = mink_empty_view(count);
    v.bounds = (__global mink_aabb *)bounds;
    v.shape_of = shape_of;
    mink_measure_block(v, g, blocks, partial);
}

__kernel void mink_measure_top_kernel(__global const uint *partial, __global uint *measure, uint blocks) {
    if (get_global_id(0) == 0) mink_measure_top(blocks, partial, measure);
}

__kernel void mink_radix_count_kernel(__global const uint *keys, __global uint *counts, uint n, uint shift,
                                      uint blocks) {
    uint g = get_global_id(0);
    if (g < blocks) mink_radix_count_block(g, blocks, n, shift, keys, counts);
}

__kernel void mink_radix_scatter_kernel(__global const uint *keys, __global const uint *vals,
                                        __global const uint *offsets, __global uint *keys_out,
                                        __global uint *vals_out, uint n, uint shift, uint blocks) {
    uint g = get_global_id(0);
    if (g < blocks) mink_radix_scatter_block(g, blocks, n, shift, keys, vals, offsets, keys_out, vals_out);
}

__kernel void mink_scan_sum_kernel(__global const uint *a, __global uint *sums, uint n, uint blocks) {
    uint g = get_global_id(0);
    if (g < blocks) mink_scan_sum_block(g, blocks, n, a, sums);
}

__kernel void mink_scan_top_kernel(__global uint *sums, uint blocks) {
    if (get_global_id(0) == 0) mink_scan_top(blocks, sums);
}

__kernel void mink_scan_apply_kernel(__global uint *a, __global const uint *sums, uint n, uint blocks) {
    uint g = get_global_id(0);
    if (g < blocks) mink_scan_apply_block(g, blocks, n, a, sums);
}

/* cells[i] = slot i's grid entries; then (scanned) where they start. cells[count + 1], zeroed
 * before, becomes 1 if any slot is large (every such work-item stores the same 1). */
__kernel void mink_grid_count_kernel(__global const mink_aabb *bounds, __global const uint *shape_of,
                                     __global uint *cells, uint count, MINK_GRID_ARGS) {
    uint i = get_global_id(0);
    if (i >= count) return;
    mink_world_view v = mink_empty_view(count);
    v.bounds = (__global mink_aabb *)bounds;
    v.shape_of = shape_of;
    uint c = mink_grid_count_item(v, MINK_GRID, i);
    cells[i] = c;
    if (mink_grid_large_with(v, i, c)) cells[count + 1u] = 1u;
}

__kernel void mink_grid_emit_kernel(__global const mink_aabb *bounds, __global const mink_body_props *props,
                                    __global uint *cells, __global uint *keys, __global uint *order, uint count,
                                    MINK_GRID_ARGS) {
    uint i = get_global_id(0);
    if (i >= count) return;
    mink_world_view v = mink_empty_view(count);
    v.bounds = (__global mink_aabb *)bounds;
    v.props = props;
    v.cells = cells;
    v.keys = keys;
    v.order = order;
    mink_grid_emit_item(v, MINK_GRID, i);
}

__kernel void mink_grid_gather_kernel(__global const mink_grid_entry *records, __global const uint *order,
                                      __global mink_grid_entry *entries, uint n) {
    uint r = get_global_id(0);
    if (r >= n) return;
    mink_world_view v = mink_empty_view(0u);
    v.records = (__global mink_grid_entry *)records;
    v.order = (__global uint *)order;
    v.entries = entries;
    mink_grid_gather_item(v, r);
}

/* Work-items [0, entries) take a sorted entry each, [entries, entries + count) a slot each (large
 * bodies; the host passes count 0 when there are none, else the slots). emit 0: found[item] = its
 * pairs. emit 1: writes them from found[item] (scanned); an item that found none has nothing to do. */
__kernel void mink_grid_pairs_kernel(__global const mink_aabb *bounds, __global const uint *shape_of,
                                     __global const mink_body_props *props, __global const uint *cells,
                                     __global const uint *keys, __global const uint *order,
                                     __global const mink_grid_entry *sorted,
                                     __global uint *kept, __global uint *found, __global mink_world_pair *pairs,
                                     __global mink_world_pair *pair_entries, uint entries, uint count, uint emit,
                                     MINK_GRID_ARGS) {
    uint r = get_global_id(0);
    if (r >= entries + count) return;
    if (emit && found[r + 1u] == found[r]) return;
    mink_world_view v = mink_empty_view(count);
    v.bounds = (__global mink_aabb *)bounds;
    v.shape_of = shape_of;
    v.props = props;
    v.cells = (__global uint *)cells;
    v.keys = (__global uint *)keys;
    v.order = (__global uint *)order;
    v.entries = (__global mink_grid_entry *)sorted;
    v.kept = kept;
    v.pairs = pairs;
    v.pair_entries = pair_entries;
    if (r < entries && emit)
        mink_grid_pairs_write(v, MINK_GRID, entries, r, found[r]);
    else if (r < entries)
        found[r] = mink_grid_pairs_count(v, MINK_GRID, entries, r);
    else if (emit)
        mink_large_pairs_item(v, r - entries, 1, found[r]);
    else
        found[r] = mink_large_pairs_item(v, r - entries, 0, 0u);
}

__kernel void mink_world_degree_kernel(__global const mink_world_pair *pairs, __global uint *adj_start,
                                       uint npairs) {
    uint k = get_global_id(0);
    if (k >= npairs) return;
    mink_world_view v = mink_empty_view(0u);
    v.pairs = (__global mink_world_pair *)pairs;
    v.adj_start = adj_start;
    mink_degree_item(v, k);
}

/* Narrowphase and resolution are built twice: for boxes and circles (polygons 0, a literal, so the
 * polygon sweeps are left out of the code) and for any shapes; the host takes the first while the
 * world has no polygon shape. With the polygon sweeps inlined, even never called, both kernels
 * ran 1.6-2x slower on PoCL (bench_world at 10^5, profiling events, interleaved runs: narrowphase
 * 1.1-1.5 -> 0.7 ms a step, resolution 1.2-1.35 -> 0.75). */
#define MINK_WORLD_NARROW_KERNEL(name, polygons)                                                   \
    __kernel void name(__global const mink_world_pair *pairs, __global const mink_world_pair *pair_entries, \
                       __global const mink_grid_entry *sorted, __global const mink_shape *shapes,   \
                       __global const uint *shape_of, __global const mink_body_props *props,        \
                       __global const mink_aabb *bounds, __global const mink_vec2 *pos,            \
                       __global const mink_vec2 *vel, __global uint *adj_start, __global uint *adj_fill, \
                       __global mink_contact *contacts, uint npairs, float dt) {                   \
        uint k = get_global_id(0);                                                                 \
        if (k >= npairs) return;                                                                   \
        mink_world_view v = mink_bodies_view(0u, shapes, shape_of, props, pos, vel);               \
        v.pairs = (__global mink_world_pair *)pairs;                                               \
        v.pair_entries = (__global mink_world_pair *)pair_entries;                                 \
        v.entries = (__global mink_grid_entry *)sorted;                                            \
        v.bounds = (__global mink_aabb *)bounds;                                                   \
        v.adj_start = adj_start;                                                                   \
        v.adj_fill = adj_fill;                                                                     \
        v.contacts = contacts;                                                                     \
        mink_narrow_item(v, mink_params(dt, 0.0f, 1u, polygons), k);                               \
    }
MINK_WORLD_NARROW_KERNEL(mink_world_narrow_kernel, 0u)
MINK_WORLD_NARROW_KERNEL(mink_world_narrow_polygon_kernel, 1u)

#define MINK_WORLD_RESOLVE_KERNEL(name, polygons)                                                  \
    __kernel void name(__global const mink_shape *shapes, __global const uint *shape_of,           \
                       __global const mink_body_props *props, __global const ulong *ids,           \
                       __global const mink_vec2 *pos, __global const mink_vec2 *vel,               \
                       __global const uint *adj_start, __global const mink_contact *contacts,      \
                       __global mink_vec2 *pos_out, __global mink_vec2 *vel_out, __global mink_event *events, \
                       __global uint *event_count, uint event_capacity, uint count, float dt, float skin, \
                       uint iterations) {                                                          \
        uint i = get_global_id(0);                                                                 \
        if (i >= count) return;                                                                    \
        mink_world_view v = mink_bodies_view(count, shapes, shape_of, props, pos, vel);            \
        v.ids = ids;                                                                               \
        v.adj_start = (__global uint *)adj_start;                                                  \
        v.contacts = (__global mink_contact *)contacts;                                            \
        v.pos_out = pos_out;                                                                       \
        v.vel_out = vel_out;                                                                       \
        v.events = events;                                                                         \
        v.event_count = event_count;                                                               \
        v.event_capacity = event_capacity;                                                         \
        mink_resolve_item(v, mink_params(dt, skin, iterations, polygons), i);                      \
    }
MINK_WORLD_RESOLVE_KERNEL(mink_world_resolve_kernel, 0u)
MINK_WORLD_RESOLVE_KERNEL(mink_world_resolve_polygon_kernel, 1u)

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
}
