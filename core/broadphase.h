/* core/broadphase.h — a step's first passes: each body's bounds over the step, the grid, its
 * radix sort and prefix sums, and the pairs found in cells. Each a function of one item.
 *
 * Valid C99 and OpenCL C, under the rules of core/geom.h.
 */
#ifndef MINK_CORE_BROADPHASE_H
#define MINK_CORE_BROADPHASE_H

#include "core/world.h"

/* ---- pass 1: bounds over the step -------------------------------------------------------------- */

/// Box b with the edges it grew past the float range brought back to ±FLT_MAX: a box grown past it
/// near the float limit stays valid, and its body still goes in the grid. A box invalid before it
/// grew stays so (a minimum of +∞, the mark of no box, stays; a NaN stays: the constant comes
/// first, and mink_maxf and mink_minf return their second operand when a comparison fails).
MINK_INLINE mink_aabb mink_aabb_in_range(mink_aabb b) {
    b.min = mink_v2(mink_maxf(-MINK_FLOAT_MAX, b.min.x), mink_maxf(-MINK_FLOAT_MAX, b.min.y));
    b.max = mink_v2(mink_minf(MINK_FLOAT_MAX, b.max.x), mink_minf(MINK_FLOAT_MAX, b.max.y));
    return b;
}

/// Whether the grid's crowd is of dynamic bodies (a crowd of moving bullets, not of static tiles).
MINK_INLINE int mink_grid_crowd_moves(mink_grid g) {
    return (g.crowd_flags != MINK_GRID_NO_CROWD) & ((g.crowd_flags & MINK_CONTACT_DYNAMIC) != 0u);
}

/// Whether a grid entry is of the grid's crowd.
MINK_INLINE int mink_grid_entry_in_crowd(mink_grid g, mink_grid_entry e) {
    return (e.category == g.crowd_category) & (e.mask == g.crowd_mask) & (e.flags == g.crowd_flags);
}

/// Whether entry e is a dynamic body outside the grid's crowd, and the crowd is of dynamic bodies:
/// in the safety rounds e may meet the crowd's bodies, which need not join those rounds'
/// broadphase unless its grid box met theirs (mink_crowd_mark, mink_final_bounds_item).
MINK_INLINE int mink_grid_meets_crowd(mink_grid g, mink_grid_entry e) {
    return mink_grid_crowd_moves(g) & ((e.flags & MINK_CONTACT_DYNAMIC) != 0u) & !mink_grid_entry_in_crowd(g, e);
}

/// The box whose cells a grid entry goes in. A dynamic body's: its planned path's, grown by its near
/// radius (covers its shape and every body the pair scan keeps with it, mink_entries_close); one
/// outside a dynamic crowd (mink_grid_meets_crowd), also its whole box over the step and a hair
/// more (2^-20 of its coordinates, above their rounding, where that stays finite): wherever the
/// safety rounds may place it, but for the skins of a few contacts where a world's skin is wider
/// than the body's push reach (mink_final_bounds_item checks). Another's: its box grown by the
/// grid's reach. A dynamic body's box in the safety rounds' broadphase (near infinite) is its own.
MINK_INLINE mink_aabb mink_grid_box(mink_grid g, mink_grid_entry e) {
    mink_aabb b = e.box;
    if ((e.flags & MINK_CONTACT_DYNAMIC) && e.near != MINK_INF) {
        mink_vec2 q = mink_v2(e.pos.x + e.move.x, e.pos.y + e.move.y);
        b.min = mink_v2(mink_minf(e.pos.x, q.x) - e.near, mink_minf(e.pos.y, q.y) - e.near);
        b.max = mink_v2(mink_maxf(e.pos.x, q.x) + e.near, mink_maxf(e.pos.y, q.y) + e.near);
        if (mink_grid_meets_crowd(g, e)) {
            mink_aabb w = e.box;
            float m = (mink_maxf(mink_absf(w.min.x), mink_absf(w.max.x)) + mink_maxf(mink_absf(w.min.y), mink_absf(w.max.y))) *
                      9.53674316e-7f;
            mink_aabb h;
            h.min = mink_v2(w.min.x - m, w.min.y - m);
            h.max = mink_v2(w.max.x + m, w.max.y + m);
            if (mink__aabb_is_valid(h)) w = h;
            b.min = mink_v2(mink_minf(b.min.x, w.min.x), mink_minf(b.min.y, w.min.y));
            b.max = mink_v2(mink_maxf(b.max.x, w.max.x), mink_maxf(b.max.y, w.max.y));
        }
    } else {
        b.min = mink_v2(b.min.x - g.reach, b.min.y - g.reach);
        b.max = mink_v2(b.max.x + g.reach, b.max.y + g.reach);
    }
    return mink_aabb_in_range(b); /* near the float limit, still in cells */
}

/// After the step's pair scan tested entry a, a dynamic body outside the crowd with grid box ga,
/// against b of the crowd: b is marked when both are dynamic, their filters meet and their grid
/// boxes overlap. An unmarked crowd body that stays within its grid box cannot meet a body outside
/// the crowd in the safety rounds while each of those stays within its own (two of the crowd never
/// meet): mink_final_bounds_item checks both and leaves it out of their broadphase. Every marker
/// stores the same 1.
MINK_INLINE void mink_crowd_mark(mink_world_view w, mink_grid g, mink_grid_entry a, mink_aabb ga, mink_grid_entry b) {
    if ((b.flags & MINK_CONTACT_DYNAMIC) && mink_filters_meet(a.category, a.mask, a.flags, b.category, b.mask, b.flags) &&
        mink_bounds_overlap(ga, mink_grid_box(g, b)) && MINK_LOAD(&w.near_crowd[b.slot]) == 0u)
        MINK_STORE(&w.near_crowd[b.slot], 1u);
}

/// Slot i's grid entry (its record) with box `box`, from its arrays, without its near (infinite):
/// what the safety rounds' broadphase keeps, and the rest of what mink_grid_entry_of computes.
MINK_INLINE mink_grid_entry mink_grid_record(mink_world_view w, mink_step_params sp, uint32_t i, mink_aabb box) {
    mink_body_props p = w.props[i];
    mink_vec2 v = w.vel[i];
    mink_grid_entry e;
    e.box = box;
    e.pos = w.pos[i];
    e.move = mink_v2(v.x * sp.dt, v.y * sp.dt);
    e.slot = i;
    e.shape = w.shape_of[i];
    e.category = p.category;
    e.mask = p.mask;
    e.flags = mink_contact_flags(p);
    e.near = MINK_INF;
    e.pad[0] = e.pad[1] = 0u;
    return e;
}

/// A dynamic body's near: its shape seen from its position (`origin_box`, the shape's box at the
/// origin), what an overlap may push it (`push`, mink_push_reach) and its skins.
MINK_INLINE float mink_grid_near(mink_aabb origin_box, float push, float skin) {
    mink_aabb b = origin_box;
    float rx = mink_maxf(mink_absf(b.min.x), mink_absf(b.max.x)), ry = mink_maxf(mink_absf(b.min.y), mink_absf(b.max.y));
    return (mink_length(mink_v2(rx, ry)) + 1.5f * push) + 2.0f * skin;
}

/// Slot i's grid entry (its record), from its arrays and its box over the step. A dynamic body's
/// `near` covers its shape seen from its position, what an overlap may push it and its skins:
/// the pair scan keeps two dynamic bodies only when their planned paths come that close.
MINK_INLINE mink_grid_entry mink_grid_entry_of(mink_world_view w, mink_step_params sp, uint32_t i) {
    mink_grid_entry e = mink_grid_record(w, sp, i, w.bounds[i]);
    if (e.flags & MINK_CONTACT_DYNAMIC) {
        MINK_GLOBAL const mink_shape *s = w.shapes + e.shape;
        float skin = sp.skin > 0.0f ? sp.skin : mink_body_skin(mink_shape_bounds(s, e.pos), mink_length(e.move));
        e.near = mink_grid_near(mink_shape_bounds(s, mink_v2(0.0f, 0.0f)), mink_push_reach(s), skin);
    }
    return e;
}

/// Whether a body is of the grid's crowd (never MINK_GRID_NO_CROWD: no body has those flags).
MINK_INLINE uint32_t mink_grid_in_crowd(mink_grid g, mink_body_props p) {
    return (uint32_t)((p.category == g.crowd_category) & (p.mask == g.crowd_mask) &
                      (mink_contact_flags(p) == g.crowd_flags));
}

/// Slot i's box over the step: where it starts, grown by how far it may go in any direction (its
/// speed × dt), twice its skin and, for a dynamic body, its push reach. Any direction, because a body that slides or bounces changes
/// course within the step; never farther, because responses never lengthen a body's path (see
/// mink_resolve_item). With w.records, also the body's grid entry (the gather's record), written
/// here while its arrays are read in sequence. A dead slot has no record: no entry names it. A
/// dynamic body outside the crowd (st.grid's) sets counters[5]: without one, no two dynamic bodies
/// can meet (the crowd never meets itself), and the step skips the safety rounds.
MINK_INLINE void mink_bounds_item(mink_world_view w, mink_step_state st, uint32_t i) {
    mink_step_params sp = st.params;
    uint32_t sid = w.shape_of[i];
    mink_aabb b;
    if (sid == MINK_WORLD_DEAD) {
        b.min = b.max = mink_v2(MINK_INF, MINK_INF);
        w.bounds[i] = b;
        return;
    }
    /* Each value computed once (the record's near needs the same skin, push reach and box at the
     * origin): this pass was the step's dearest single launch. */
    MINK_GLOBAL const mink_shape *s = w.shapes + sid;
    mink_body_props props = w.props[i];
    mink_vec2 p = w.pos[i], v = w.vel[i];
    b = mink_shape_bounds(s, p);
    mink_vec2 move = mink_v2(v.x * sp.dt, v.y * sp.dt);
    float reach = mink_length(move);
    /* A planned move past the float range (velocity × dt, its length, or where it ends) is no step:
     * the host fails it before anything moved. Left to run, the body went in no cell, stayed where
     * it was, and the others passed through it. */
    if (!((reach < MINK_INF) & mink__vec2_is_valid(mink_v2(p.x + move.x, p.y + move.y))))
        MINK_ATOMIC_MAX(&w.counters[7], w.slot_of[i] + 1u);
    float skin = sp.skin > 0.0f ? sp.skin : mink_body_skin(b, reach);
    /* A dynamic body may also be pushed out of an overlap, by at most its push reach. */
    int dynamic = mink_is_dynamic(props);
    mink_aabb origin_box = b; /* set below for a dynamic body: the others never use it */
    if (dynamic) origin_box = mink_shape_bounds(s, mink_v2(0.0f, 0.0f));
    float push = dynamic ? mink_box_push_reach(origin_box) : 0.0f;
    float grow = (reach + 2.0f * skin) + push;
    /* Grown past the float range (a body within its move of the limit, or whose skin and push
     * carry it past): clamped to it, so that the body still goes in the grid and meets every wall
     * on its way. Left invalid, its box put it in no cell, and it passed through them. Its box
     * before it grew is finite (so are positions, and shapes reach at most MINK_WORLD_MAX_SHAPE),
     * and grow is never NaN. A move past the range has failed the step above. */
    b.min = mink_v2((b.min.x - grow) + 0.0f, (b.min.y - grow) + 0.0f);
    b.max = mink_v2((b.max.x + grow) + 0.0f, (b.max.y + grow) + 0.0f);
    b = mink_aabb_in_range(b);
    w.bounds[i] = b;
    /* Every live dynamic body, even one whose box overflowed (the safety rounds still see it). */
    if (dynamic && MINK_LOAD(&w.counters[5]) == 0u && !mink_grid_in_crowd(st.grid, props))
        MINK_ATOMIC_MAX(&w.counters[5], 1u);
    if (!w.records) return;
    mink_grid_entry e = mink_grid_record(w, sp, i, b); /* its arrays' lines are in the cache now */
    if (dynamic) e.near = mink_grid_near(origin_box, push, skin);
    w.records[i] = e;
    /* A dynamic body goes in the cells of its planned path's box (mink_grid_box); the others grow
     * theirs by the largest move (and push reach) of a dynamic body, so every pair whose boxes
     * meet shares a cell: the path's box grown by near already holds the body's box grown by its
     * skins and push, so what its bounds add beyond is its move. Not the skins: they grow with the
     * distance from the origin, and one bullet at 1e30 grew every static body's box with its skin
     * and made each step of the bullet hell about 40 times slower (docs/benchmarks.md). */
    if (dynamic && mink__aabb_is_valid(b)) {
        w.bounds[i] = mink_grid_box(st.grid, e);
        /* Read first: once the largest moves are in, almost no body needs the atomic (a million of
         * them on one word took PoCL 20 ms). The word only grows, so a stale read only costs one. */
        uint32_t bits = mink_float_bits(reach + push);
        if (bits > MINK_LOAD(&w.counters[2])) MINK_ATOMIC_MAX(&w.counters[2], bits);
    }
}

/// The measure of block g of the boxes into partial[g * MINK_MEASURE_WORDS ...]: the keys of the
/// world box's edges, and how many boxes fall in each size class.
MINK_INLINE void mink_measure_block(mink_world_view w, uint32_t g, uint32_t blocks, MINK_GLOBAL uint32_t *partial) {
    uint32_t m[MINK_MEASURE_WORDS];
    for (uint32_t k = 0; k < MINK_MEASURE_WORDS; k++) m[k] = 0u;
    m[0] = m[1] = 0xffffffffu;
    uint32_t lo = mink_block_begin(g, blocks, w.count), hi = mink_block_begin(g + 1u, blocks, w.count);
    for (uint32_t i = lo; i < hi; i++) {
        mink_aabb b = w.bounds[i];
        if (w.shape_of[i] == MINK_WORLD_DEAD || !mink__aabb_is_valid(b)) continue;
        uint32_t k0 = mink_sort_key(b.min.x), k1 = mink_sort_key(b.min.y);
        uint32_t k2 = mink_sort_key(b.max.x), k3 = mink_sort_key(b.max.y);
        m[0] = k0 < m[0] ? k0 : m[0];
        m[1] = k1 < m[1] ? k1 : m[1];
        m[2] = k2 > m[2] ? k2 : m[2];
        m[3] = k3 > m[3] ? k3 : m[3];
        int e = 0;
        mink_frexpf(mink_maxf(b.max.x - b.min.x, b.max.y - b.min.y), &e);
        int c = e + 64;
        m[4 + (c < 0 ? 0 : c > 127 ? 127 : c)]++;
    }
    for (uint32_t k = 0; k < MINK_MEASURE_WORDS; k++) partial[g * MINK_MEASURE_WORDS + k] = m[k];
}

/// The blocks' measures merged into measure (min, max, sums: the same in any grouping).
MINK_INLINE void mink_measure_top(uint32_t blocks, MINK_GLOBAL const uint32_t *partial, MINK_GLOBAL uint32_t *measure) {
    for (uint32_t k = 0; k < MINK_MEASURE_WORDS; k++) measure[k] = partial[k];
    for (uint32_t g = 1; g < blocks; g++) {
        MINK_GLOBAL const uint32_t *m = partial + g * MINK_MEASURE_WORDS;
        measure[0] = m[0] < measure[0] ? m[0] : measure[0];
        measure[1] = m[1] < measure[1] ? m[1] : measure[1];
        measure[2] = m[2] > measure[2] ? m[2] : measure[2];
        measure[3] = m[3] > measure[3] ? m[3] : measure[3];
        for (uint32_t k = 4; k < MINK_MEASURE_WORDS; k++) measure[k] += m[k];
    }
}

/// The column (or row) of coordinate x: floor(x / cell), exact (the cell is a power of two), as
/// an unsigned word, clamped to ±2^30 first: beyond that a body's cells pile up at the edge, where
/// they cost no more than themselves. A NaN clamps to −2^30. The floor is the conversion (toward
/// zero) less one below a negative fraction: C's floorf is a library call without SSE4.1, and the
/// broadphase calls this four times a body and twice a pair tested.
MINK_INLINE uint32_t mink_grid_column(float x, float inv_cell) {
    float v = mink_minf(mink_maxf(x * inv_cell, -0x1p30f), 0x1p30f);
    int t = (int)v;
    return (uint32_t)(t - (v < (float)t));
}

/// The bucket of cell (x, y): rows 2048 columns apart, wrapped. A body goes in at most 1001 cells
/// a side, so two of its cells differ by |dx| <= 1000 and |dy| <= 1000, |dx + 2048 dy| < 2^21, and
/// with at least 2^21 buckets no two of them share a bucket: each pair of bodies is found once.
/// Worlds under 2048 cells wide and buckets / 2048 high hash without any collision.
MINK_INLINE uint32_t mink_grid_bucket(mink_grid g, uint32_t x, uint32_t y) {
    return (x + 2048u * y) & (g.buckets - 1u);
}

/// The cells a box covers: columns x0 .. x0 + nx - 1, rows y0 .. y0 + ny - 1 (sizes modulo 2^32;
/// an invalid box's are meaningless, and unused).
MINK_INLINE void mink_grid_cells(mink_grid g, mink_aabb b, uint32_t *x0, uint32_t *y0, uint32_t *nx, uint32_t *ny) {
    *x0 = mink_grid_column(b.min.x, g.inv_cell);
    *y0 = mink_grid_column(b.min.y, g.inv_cell);
    *nx = mink_grid_column(b.max.x, g.inv_cell) - *x0 + 1u;
    *ny = mink_grid_column(b.max.y, g.inv_cell) - *y0 + 1u;
}

/// Whether the crowd's small bodies have one entry each (the host sets g.crowd_single, for a crowd
/// that moves and is nearly every body: host/world_step.c): then a crowd body of at most 2 × 2
/// cells goes in one, that of its box's lower corner, and every body outside the crowd goes in one
/// column and one row more, below its box's, so that it shares that cell with each such crowd body
/// whose box meets its own (that body starts at most a column and a row before it).
MINK_INLINE int mink_grid_single_entries(mink_grid g) { return (int)(g.crowd_single != 0u); }

/// Whether a crowd body whose grid box covers nx × ny cells has a single entry.
MINK_INLINE int mink_grid_single(mink_grid g, uint32_t nx, uint32_t ny) {
    return mink_grid_single_entries(g) & (nx <= 2u) & (ny <= 2u);
}

/// The cells of a body with grid box b, of the crowd or not: those of b, but one, or one column
/// and row more, with single entries (mink_grid_single_entries).
MINK_INLINE void mink_grid_entry_cells(mink_grid g, mink_aabb b, int crowd, uint32_t *x0, uint32_t *y0, uint32_t *nx,
                                       uint32_t *ny) {
    mink_grid_cells(g, b, x0, y0, nx, ny);
    uint32_t grows = (uint32_t)(mink_grid_single_entries(g) & !crowd);
    int single = crowd && mink_grid_single(g, *nx, *ny);
    *x0 -= grows, *y0 -= grows;
    *nx = single ? 1u : *nx + grows;
    *ny = single ? 1u : *ny + grows;
}

/// Slot i's box in the grid: its bounds (a dynamic body's already its path's), grown by the grid's
/// reach when it is not dynamic (mink_grid_box).
MINK_INLINE mink_aabb mink_slot_grid_box(mink_world_view w, mink_grid g, uint32_t i) {
    mink_aabb b = w.bounds[i];
    float reach = mink_is_dynamic(w.props[i]) ? 0.0f : g.reach;
    b.min = mink_v2(b.min.x - reach, b.min.y - reach);
    b.max = mink_v2(b.max.x + reach, b.max.y + reach);
    return b;
}

/// The cells slot i goes in (mink_grid_entry_cells), or 0 when it is dead, its box is invalid, or
/// its box covers more than g.max_cells or MINK_GRID_MAX_SIDE a side (then it is large). Judged on
/// its box's own cells: the column and row a body outside the crowd takes more with single entries
/// never make it large (a pair with a large body is swept from the large body's side). With them,
/// a body goes in up to MINK_GRID_MAX_SIDE + 1 cells a side, whose buckets still differ
/// (mink_grid_bucket).
MINK_INLINE uint32_t mink_grid_cell_count(mink_world_view w, mink_grid g, uint32_t i) {
    /* Without a branch, so PoCL runs the work-items side by side: an invalid box clamps to some
     * cells, then counts none (its sizes may wrap: unsigned, and unused). */
    mink_aabb b = mink_slot_grid_box(w, g, i);
    uint32_t x0, y0, nx, ny, ex, ey, enx, eny;
    mink_grid_cells(g, b, &x0, &y0, &nx, &ny);
    mink_grid_entry_cells(g, b, (int)mink_grid_in_crowd(g, w.props[i]), &ex, &ey, &enx, &eny);
    int in = (w.shape_of[i] != MINK_WORLD_DEAD) & mink__aabb_is_valid(b) & (nx <= MINK_GRID_MAX_SIDE) &
             (ny <= MINK_GRID_MAX_SIDE) & (nx * ny <= g.max_cells); /* else dead, invalid or large */
    return in ? enx * eny : 0u;
}

/// Whether slot i is alive, with a valid box, and (its cell count c) in no cell: a large body.
MINK_INLINE int mink_grid_large_with(mink_world_view w, uint32_t i, uint32_t c) {
    return c == 0u && w.shape_of[i] != MINK_WORLD_DEAD && mink__aabb_is_valid(w.bounds[i]);
}

MINK_INLINE int mink_grid_is_large(mink_world_view w, mink_grid g, uint32_t i) {
    return mink_grid_large_with(w, i, mink_grid_cell_count(w, g, i));
}

/// The key of a large body's one entry: a bucket past the last, so the stable sort puts the large
/// bodies last, in slot order, where the pair pass finds them.
MINK_INLINE uint32_t mink_grid_large_key(mink_grid g) { return g.buckets * 2u << g.x_bits; }

/// Where x lies across column `column` of the grid, in 2^x_bits slices (clamped to the first and the
/// last): a box that starts in a column to the left starts at slice 0. Monotone in x, so for two
/// boxes of one cell, a slice of one's start above the slice of the other's end means they are
/// apart along x.
MINK_INLINE uint32_t mink_grid_x_slice(mink_grid g, uint32_t column, float x) {
    float f = (x * g.inv_cell - (float)(int)column) * (float)(1u << g.x_bits);
    return (uint32_t)mink_minf(mink_maxf(f, 0.0f), (float)((1u << g.x_bits) - 1u));
}

/// The slice where the box of entry e, in bucket `bucket`, ends across its cell: an entry of the
/// bucket whose key's slice is above it starts past e's box along x, so it cannot pair with e (or
/// it lies in another cell that hashes to the bucket, and no pair is found from two such entries:
/// a pair is found in the cell of its overlap's lower corner, where both have their entry of this
/// bucket). Its column is the one of its columns (MINK_GRID_MAX_SIDE + 1 at most, the first one
/// before its box's with single entries: mink_grid_entry_cells) that the bucket's low 11 bits name
/// (the buckets are a multiple of 2048).
MINK_INLINE uint32_t mink_grid_x_end(mink_grid g, uint32_t bucket, mink_grid_entry e) {
    mink_aabb b = mink_grid_box(g, e); /* the box its cells came from */
    uint32_t first = mink_grid_column(b.min.x, g.inv_cell) - (uint32_t)(mink_grid_single_entries(g) & !mink_grid_entry_in_crowd(g, e));
    return mink_grid_x_slice(g, first + ((bucket - first) & 2047u), b.max.x);
}

/// How many grid entries slot i makes: one a cell, one if it is large (*large says so), none if
/// it is dead or its box invalid.
MINK_INLINE uint32_t mink_grid_count_item(mink_world_view w, mink_grid g, uint32_t i, int *large) {
    uint32_t c = mink_grid_cell_count(w, g, i);
    *large = mink_grid_large_with(w, i, c);
    return c + (uint32_t)*large;
}

/// Writes slot i's entries from w.cells[i] (its counts scanned): the key (its cell's bucket × 2
/// + 1 for the crowd, so in a bucket the crowd's entries come last, then the slice where its box
/// starts across the cell) and the slot (the sort's value). A slot's entries are in different
/// buckets (mink_grid_bucket), and a bucket's entries are emitted in slot order, so the stable
/// sort leaves each bucket's entries by crowd, then where they start along x, then slot.
MINK_INLINE void mink_grid_emit_item(mink_world_view w, mink_grid g, uint32_t i) {
    uint32_t at = w.cells[i];
    if (w.cells[i + 1u] == at) return;
    if (mink_grid_is_large(w, g, i)) {
        w.keys[at] = mink_grid_large_key(g);
        w.order[at] = i;
        return;
    }
    uint32_t crowd = mink_grid_in_crowd(g, w.props[i]);
    uint32_t x0, y0, nx, ny;
    mink_aabb b = mink_slot_grid_box(w, g, i);
    mink_grid_entry_cells(g, b, (int)crowd, &x0, &y0, &nx, &ny);
    for (uint32_t dy = 0; dy < ny; dy++)
        for (uint32_t dx = 0; dx < nx; dx++) {
            w.keys[at] = (mink_grid_bucket(g, x0 + dx, y0 + dy) * 2u + crowd) << g.x_bits |
                         mink_grid_x_slice(g, x0 + dx, b.min.x);
            w.order[at] = i;
            at++;
        }
}

/* ---- pass 2: a stable radix sort of the keys, block by block ------------------------------------
 * A block is a contiguous run of items one work-item owns. Counting, a scan of the counts in
 * (digit, block) order, then each block scattering its own items in order: stable, and the same
 * permutation whatever the number of blocks. */

MINK_INLINE void mink_radix_count_block(uint32_t g, uint32_t blocks, uint32_t n, uint32_t shift,
                                        MINK_GLOBAL const uint32_t *keys, MINK_GLOBAL uint32_t *counts) {
    uint32_t c[MINK_RADIX_BINS];
    for (uint32_t d = 0; d < MINK_RADIX_BINS; d++) c[d] = 0u;
    uint32_t lo = mink_block_begin(g, blocks, n), hi = mink_block_begin(g + 1u, blocks, n);
    for (uint32_t k = lo; k < hi; k++) c[(keys[k] >> shift) & (MINK_RADIX_BINS - 1u)]++;
    for (uint32_t d = 0; d < MINK_RADIX_BINS; d++) counts[d * blocks + g] = c[d];
}

MINK_INLINE void mink_radix_scatter_block(uint32_t g, uint32_t blocks, uint32_t n, uint32_t shift,
                                          MINK_GLOBAL const uint32_t *keys, MINK_GLOBAL const uint32_t *vals,
                                          MINK_GLOBAL const uint32_t *offsets, MINK_GLOBAL uint32_t *keys_out,
                                          MINK_GLOBAL uint32_t *vals_out) {
    uint32_t at[MINK_RADIX_BINS];
    for (uint32_t d = 0; d < MINK_RADIX_BINS; d++) at[d] = offsets[d * blocks + g];
    uint32_t lo = mink_block_begin(g, blocks, n), hi = mink_block_begin(g + 1u, blocks, n);
    for (uint32_t k = lo; k < hi; k++) {
        uint32_t key = keys[k];
        uint32_t to = at[(key >> shift) & (MINK_RADIX_BINS - 1u)]++;
        keys_out[to] = key;
        vals_out[to] = vals[k];
    }
}

/* ---- an exclusive prefix sum, block by block ----------------------------------------------------
 * a has n + 1 entries and ends with the total; sums has blocks + 1: each block's total, then (after
 * mink_scan_top) each block's start and the total last. mink_scan_top alone is the whole scan of
 * an array with one block. The sums saturate at MINK_SCAN_FULL rather than wrap: a total that
 * does not fit 32 bits is seen as too many (the host then counts it exactly), never as a few. */
#define MINK_SCAN_FULL 0xffffffffu

MINK_INLINE uint32_t mink_add_sat(uint32_t a, uint32_t b) { return a > MINK_SCAN_FULL - b ? MINK_SCAN_FULL : a + b; }

MINK_INLINE void mink_scan_sum_block(uint32_t g, uint32_t blocks, uint32_t n, MINK_GLOBAL const uint32_t *a,
                                     MINK_GLOBAL uint32_t *sums) {
    uint32_t lo = mink_block_begin(g, blocks, n), hi = mink_block_begin(g + 1u, blocks, n);
    uint32_t s = 0u;
    for (uint32_t k = lo; k < hi; k++) s = mink_add_sat(s, a[k]);
    sums[g] = s;
}

MINK_INLINE void mink_scan_top(uint32_t blocks, MINK_GLOBAL uint32_t *sums) {
    uint32_t run = 0u;
    for (uint32_t g = 0; g < blocks; g++) {
        uint32_t s = sums[g];
        sums[g] = run;
        run = mink_add_sat(run, s);
    }
    sums[blocks] = run;
}

MINK_INLINE void mink_scan_apply_block(uint32_t g, uint32_t blocks, uint32_t n, MINK_GLOBAL uint32_t *a,
                                       MINK_GLOBAL const uint32_t *sums) {
    uint32_t lo = mink_block_begin(g, blocks, n), hi = mink_block_begin(g + 1u, blocks, n);
    uint32_t run = sums[g];
    for (uint32_t k = lo; k < hi; k++) {
        uint32_t s = a[k];
        a[k] = run;
        run = mink_add_sat(run, s);
    }
    if (g + 1u == blocks) a[n] = run; /* the total after the last, as mink_scan_top leaves it */
}

/* ---- pass 3: pairs in cells ----------------------------------------------------------------- */

/// Whether two dynamic bodies' planned paths come within the sum of their `near` radii at some time
/// of the step (the closest approach of their positions' relative motion); always, when either is
/// not dynamic (its near is infinite). Two fast bodies' boxes overlap far more often than their
/// paths come close: in a crowd moving tens of diameters a step, a hundredfold. Pairs culled here
/// meet no impulse this step; the safety rounds' own pairs (final boxes, no cull) hold them apart.
MINK_INLINE int mink_entries_close(mink_grid_entry a, mink_grid_entry b) {
    float dx = b.pos.x - a.pos.x, dy = b.pos.y - a.pos.y, mx = b.move.x - a.move.x, my = b.move.y - a.move.y;
    float mm = mx * mx + my * my, s = -(dx * mx + dy * my), r = a.near + b.near, rr = r * r;
    float d0 = dx * dx + dy * dy, ex = dx + mx, ey = dy + my, d1 = ex * ex + ey * ey;
    /* The closest approach at t = s / mm in [0, 1], without dividing: before the start, after the
     * end, or between, where |d|^2 - s^2 / mm <= r^2 reads |d|^2 mm - s^2 <= r^2 mm. The pair scan
     * asks this of every pair of boxes it tests: no division, no branch. */
    int near0 = !(d0 > rr), near1 = !(d1 > rr), between = !(d0 * mm - s * s > rr * mm);
    return (s <= 0.0f) ? near0 : (s >= mm) ? near1 : between; /* NaN from huge values keeps the pair */
}

/// Whether the pair scan keeps entries a and b: their boxes overlap, the world wants them
/// (mink_world_wants on the gathered filters) and, two dynamic bodies, their paths come close.
/// The path test only for boxes that overlap: PoCL runs the scan's loop one entry at a time, and
/// there the branch costs less than the test (docs/benchmarks.md, "Pairs no pass reads").
MINK_INLINE int mink_grid_entries_meet(mink_grid_entry a, mink_grid_entry b) {
    if (!(mink_bounds_overlap(a.box, b.box) & mink_filters_meet(a.category, a.mask, a.flags, b.category, b.mask, b.flags)))
        return 0;
    return mink_entries_close(a, b);
}

/// Whether the world wants slots i and j as a pair (their records, as the pair scan's entries).
MINK_INLINE int mink_pair_found(mink_world_view w, uint32_t i, uint32_t j) {
    return mink_grid_entries_meet(w.records[i], w.records[j]);
}

/// Counts one more pair (i, j); with emit, writes it at at + found. Returns the new count.
MINK_INLINE uint32_t mink_pair_emit(mink_world_view w, int emit, uint32_t at, uint32_t found, uint32_t i, uint32_t j,
                                    uint32_t ri, uint32_t rj) {
    if (emit) {
        mink_world_pair p, e;
        p.a = i;
        p.b = j;
        e.a = ri;
        e.b = rj;
        w.pairs[at + found] = p;
        w.pair_entries[at + found] = e;
    }
    return found + 1u;
}

/// After the sort: sorted entry r's body, copied from its record, so the pair scan below reads the
/// entries of a cell in sequence. One record a slot, not one a grid entry the emit pass wrote: a
/// quarter less memory a body. From the record, not the body's five arrays: the sort leaves the
/// slots in no order, and one 64-byte read at random is three times faster than five
/// (docs/benchmarks.md, "Figures behind the code").
MINK_INLINE void mink_grid_gather_item(mink_world_view w, uint32_t r) {
    w.entries[r] = w.records[w.order[r]];
}

/// Whether the pair of sorted entries a and b (in bucket `cell`; a outside the crowd) is found
/// there: they meet, and this is the pair's own bucket: that of the cell holding the lower corner
/// of the two boxes' overlap, where each of them has exactly one entry; or b is a crowd body with
/// a single entry (mink_grid_single_entries), which a meets there if anywhere (a cell of a's that
/// hashes to the same bucket is not b's, and then their boxes are apart). So a pair sharing many
/// cells is found once.
MINK_INLINE int mink_grid_pair_here(mink_grid g, uint32_t cell, mink_grid_entry a, mink_grid_entry b) {
    if (!mink_grid_entries_meet(a, b)) return 0;
    mink_aabb ga = mink_grid_box(g, a), gb = mink_grid_box(g, b); /* the boxes their cells came from */
    if (!mink_bounds_overlap(ga, gb)) return 0; /* never (mink_bounds_item), and never by how cells hash */
    uint32_t bx, by, bnx, bny;
    mink_grid_cells(g, gb, &bx, &by, &bnx, &bny);
    if (mink_grid_entry_in_crowd(g, b) && mink_grid_single(g, bnx, bny)) return 1;
    uint32_t x = mink_grid_column(mink_maxf(ga.min.x, gb.min.x), g.inv_cell);
    uint32_t y = mink_grid_column(mink_maxf(ga.min.y, gb.min.y), g.inv_cell);
    return mink_grid_bucket(g, x, y) == cell;
}

/// Whether the scan of an entry whose box ends at slice `end` of its cell skips entry s of its
/// bucket (key ks): s starts past that end (mink_grid_x_end). *stop says the scan is over: s is of
/// the crowd, which comes last and sorted by slice too, so every entry after it starts later.
MINK_INLINE int mink_grid_x_past(mink_grid g, uint32_t end, uint32_t ks, int *stop) {
    int past = (ks & ((1u << g.x_bits) - 1u)) > end;
    *stop = past & (int)((ks >> g.x_bits) & 1u);
    return past;
}

/// The pairs sorted (and gathered) entry r finds: with every later entry in its bucket for which
/// mink_grid_pair_here holds. Returns how many, and in w.kept[r] which of the next 32 entries they
/// are (bit k: entry r + 1 + k), so the pass that writes them need not test those again. An entry
/// of the crowd has only the crowd after it in its bucket: nothing to test. Entries that start
/// past r's box along x are skipped untested (their keys read, not their entries): in a crowd
/// moving tens of diameters a step, most of a bucket (docs/benchmarks.md).
MINK_INLINE uint32_t mink_grid_pairs_count(mink_world_view w, mink_grid g, uint32_t entries, uint32_t r) {
    uint32_t key = w.keys[r], shift = g.x_bits + 1u, cell = key >> shift, found = 0u, kept = 0u;
    mink_grid_entry ei = w.entries[r];
    int scan = (((key >> g.x_bits) & 1u) == 0u) & (key != mink_grid_large_key(g)), stop = 0; /* large: below */
    uint32_t end = scan ? mink_grid_x_end(g, cell, ei) : 0u;
    int marks = scan && mink_grid_meets_crowd(g, ei) && ei.near != MINK_INF; /* the step's scan, not the safety's */
    mink_aabb gi = marks ? mink_grid_box(g, ei) : ei.box;
    for (uint32_t s = r + 1u; scan && s < entries && w.keys[s] >> shift == cell; s++) {
        if (mink_grid_x_past(g, end, w.keys[s], &stop)) {
            if (stop) break;
            continue;
        }
        mink_grid_entry es = w.entries[s];
        if (marks && ((w.keys[s] >> g.x_bits) & 1u)) mink_crowd_mark(w, g, ei, gi, es);
        if (!mink_grid_pair_here(g, cell, ei, es)) continue;
        if (s - r <= 32u) kept |= 1u << (s - r - 1u);
        found++;
    }
    w.kept[r] = kept;
    return found;
}

/// Pair (r, s) of sorted entries, r's slot i and s's slot j, written at `at`, the body outside
/// the crowd first, else the smaller public slot (the side a pair is swept from decides its bits).
MINK_INLINE void mink_grid_pair_put(mink_world_view w, mink_grid g, uint32_t at, uint32_t i, uint32_t j, uint32_t r,
                                    uint32_t s) {
    int swap = (int)(((w.keys[s] >> g.x_bits) & 1u) == 0u) && mink_public_before(w, j, i);
    (void)mink_pair_emit(w, 1, at, 0u, swap ? j : i, swap ? i : j, swap ? s : r, swap ? r : s);
}

/// Writes entry r's pairs from `at`, in the order mink_grid_pairs_count found them: the kept
/// bits, then, in a bucket of more than 32 entries after r, the rest tested again. The slots come
/// from w.order (4 bytes an entry), not the gathered entries (64): one entry in ten has pairs, so
/// this pass reads in no sequence a prefetcher follows, and reading the entries' slots took it
/// twice as long (docs/benchmarks.md, "Figures behind the code").
MINK_INLINE void mink_grid_pairs_write(mink_world_view w, mink_grid g, uint32_t entries, uint32_t r, uint32_t at) {
    uint32_t shift = g.x_bits + 1u, cell = w.keys[r] >> shift, i = w.order[r];
    for (uint32_t kept = w.kept[r]; kept != 0u; kept &= kept - 1u, at++) {
        uint32_t s = r + 1u + MINK_CTZ(kept); /* kept != 0 */
        mink_grid_pair_put(w, g, at, i, w.order[s], r, s);
    }
    mink_grid_entry ei = w.entries[r];
    uint32_t end = mink_grid_x_end(g, cell, ei);
    int stop = 0;
    for (uint32_t s = r + 33u; s < entries && w.keys[s] >> shift == cell; s++) {
        if (mink_grid_x_past(g, end, w.keys[s], &stop)) {
            if (stop) break;
            continue;
        }
        if (mink_grid_pair_here(g, cell, ei, w.entries[s])) mink_grid_pair_put(w, g, at++, i, w.entries[s].slot, r, s);
    }
}

/// The pairs of slot j with the large bodies, the last `large` sorted entries: each it meets,
/// written (large, j); a large j pairs only with the large bodies before it in public slot order,
/// so a pair of large bodies is found once. One work-item a slot, each reading the same few large
/// records: the old way round, one work-item a large body over every slot, ran a million slots on
/// one GPU thread.
MINK_INLINE uint32_t mink_large_pairs_item(mink_world_view w, mink_grid g, uint32_t entries, uint32_t large,
                                           uint32_t j, int emit, uint32_t at) {
    uint32_t found = 0u;
    if (w.shape_of[j] == MINK_WORLD_DEAD || !mink__aabb_is_valid(w.bounds[j])) return 0u;
    uint32_t last = mink_grid_is_large(w, g, j) ? w.slot_of[j] : 0xffffffffu;
    for (uint32_t k = entries - large; k < entries; k++) {
        uint32_t i = w.order[k];
        if (i == j) continue;
        if (!emit) { /* the marks of mink_crowd_mark, either way round */
            mink_grid_entry ri = w.records[i], rj = w.records[j];
            if (mink_grid_meets_crowd(g, ri) && ri.near != MINK_INF && mink_grid_in_crowd(g, w.props[j]))
                mink_crowd_mark(w, g, ri, mink_grid_box(g, ri), rj);
            if (mink_grid_meets_crowd(g, rj) && rj.near != MINK_INF && mink_grid_in_crowd(g, w.props[i]))
                mink_crowd_mark(w, g, rj, mink_grid_box(g, rj), ri);
        }
        if (w.slot_of[i] >= last || !mink_pair_found(w, i, j)) continue;
        found = mink_pair_emit(w, emit, at, found, i, j, MINK_WORLD_DEAD, MINK_WORLD_DEAD);
    }
    return found;
}

#endif /* MINK_CORE_BROADPHASE_H */
