/* core/query.h — questions to a world as it stands, item by item: the boxes of the bodies a query
 * call sees (they go into the step's grid, core/broadphase.h), and each query's walk through the
 * grid's cells in the order its translation crosses them, with the exact sweep of every body met.
 *
 * Valid C99 and OpenCL C, under the rules of core/geom.h.
 */
#ifndef MINK_CORE_QUERY_H
#define MINK_CORE_QUERY_H

#include "core/broadphase.h"

/// Whether a query call sees body p (alive): the filter's rule, and a sensor only when asked.
MINK_INLINE int mink_query_sees(mink_query_params q, mink_body_props p) {
    return ((p.category & q.mask) != 0u) & ((p.mask & q.category) != 0u) & ((q.sensors != 0u) | !mink_is_sensor(p));
}

/// Slot i's box for a query call: its shape's, where it stands; none (an invalid box, in no cell
/// and no measure) when it is dead or the call does not see it.
MINK_INLINE void mink_query_bounds_item(mink_world_view w, mink_step_state st, uint32_t i) {
    uint32_t sid = w.shape_of[i];
    mink_aabb b;
    b.min = b.max = mink_v2(MINK_INF, MINK_INF);
    if (sid != MINK_WORLD_DEAD && mink_query_sees(st.query, w.props[i])) b = mink_shape_bounds(w.shapes + sid, w.pos[i]);
    w.bounds[i] = b;
}

/// The query's box where it starts: its shape's, or its point's.
MINK_INLINE mink_aabb mink_query_box(mink_world_view w, mink_world_query q) {
    mink_aabb b;
    b.min = b.max = q.position;
    if (q.shape != MINK_QUERY_POINT) b = mink_shape_bounds(w.shapes + q.shape, q.position);
    return b;
}

/// The query (a) swept against body j (b) standing still, over a step of 1: mink_sweep_bodies'
/// bits, and a point's those of mink_cast_ray (a box of no size).
MINK_INLINE mink_hit mink_query_sweep(mink_world_view w, mink_world_query q, uint32_t j, uint32_t hulls) {
    MINK_GLOBAL const mink_shape *b = w.shapes + w.shape_of[j];
    mink_vec2 pb = w.pos[j], still = mink_v2(0.0f, 0.0f);
    if (q.shape != MINK_QUERY_POINT)
        return mink_sweep_placed(w.shapes + q.shape, q.position, q.translation, b, pb, still, hulls);
    mink_aabb point;
    point.min = point.max = q.position;
    if (b->type == MINK_SHAPE_AABB) return mink__sweep_aabb(point, q.translation, mink_shape_aabb_at(b, pb), still, 1.0f);
    if (b->type == MINK_SHAPE_CIRCLE)
        return mink_hit_mirror(mink__sweep_circle_aabb(mink_shape_circle_at(b, pb), still, point, q.translation, 1.0f));
    if (!hulls) return mink_hit_invalid(); /* a polygon or capsule where none was said to be */
    mink_body ray = mink__body_aabb(point, q.translation), placed = mink_shape_place(b, pb, still);
    if (!(hulls & MINK_HULLS_CAPSULES)) return mink_sweep_bodies_polygonal(ray, placed, 1.0f);
    return mink_sweep_bodies_linear(ray, placed, 1.0f);
}

/// The order of a query's hits: by t, then by slot (a hit names its body's public slot).
MINK_INLINE int mink_query_before(mink_world_hit a, mink_world_hit b) {
    return a.hit.t != b.hit.t ? a.hit.t < b.hit.t : a.body < b.body;
}

/* ---- the walk: a query's cells, in the order its translation crosses them ------------------------
 * In (u, v) coordinates, u the axis it moves along most: column by column along u, each column's
 * rows those the query's box passes while it is in that column, grown by a margin far above the
 * rounding of the arithmetic, all inside the world's cells. */

typedef struct mink_walk {
    mink_aabb q;       ///< the query's box at the start, in (u, v)
    mink_vec2 d;       ///< its translation, in (u, v)
    float cell, margin;
    int c0, c1;    ///< the first and last column, in walk order (c0 >= c1 walking down)
    int v0, v1;    ///< the world's rows
    uint32_t swap;     ///< 1: u is y
    uint32_t empty;    ///< 1: the swept box misses the world, no column
} mink_walk;

MINK_INLINE mink_vec2 mink_walk_uv(mink_vec2 p, uint32_t swap) { return swap ? mink_v2(p.y, p.x) : p; }

MINK_INLINE mink_aabb mink_walk_box_uv(mink_aabb b, uint32_t swap) {
    mink_aabb r;
    r.min = mink_walk_uv(b.min, swap);
    r.max = mink_walk_uv(b.max, swap);
    return r;
}

MINK_INLINE int mink_walk_cell(float x, float inv_cell) { return (int)mink_grid_column(x, inv_cell); }

/// The walk of a query with box qb and translation d through grid g, inside the world box w. The
/// columns it would cross are none (c0 past c1 in walk order: *cells 0) when the swept box misses
/// the world. *cells receives about how many cells it visits, for the choice of a scan instead.
MINK_INLINE mink_walk mink_walk_make(mink_grid g, mink_aabb world, mink_aabb qb, mink_vec2 d, float *cells) {
    mink_walk k;
    k.swap = mink_absf(d.y) > mink_absf(d.x) ? 1u : 0u;
    k.q = mink_walk_box_uv(qb, k.swap);
    k.d = mink_walk_uv(d, k.swap);
    mink_aabb wb = mink_walk_box_uv(world, k.swap);
    k.cell = 1.0f / g.inv_cell;
    float far = mink_maxf(mink_maxf(mink_absf(k.q.min.x), mink_absf(k.q.max.x)),
                          mink_maxf(mink_absf(k.q.min.y), mink_absf(k.q.max.y)));
    k.margin = ((far + mink_maxf(mink_absf(k.d.x), mink_absf(k.d.y))) + k.cell) * 0x1p-20f;
    float lo = mink_maxf(mink_minf(k.q.min.x, k.q.min.x + k.d.x) - k.margin, wb.min.x);
    float hi = mink_minf(mink_maxf(k.q.max.x, k.q.max.x + k.d.x) + k.margin, wb.max.x);
    float vlo = mink_maxf(mink_minf(k.q.min.y, k.q.min.y + k.d.y) - k.margin, wb.min.y);
    float vhi = mink_minf(mink_maxf(k.q.max.y, k.q.max.y + k.d.y) + k.margin, wb.max.y);
    k.v0 = mink_walk_cell(wb.min.y, g.inv_cell);
    k.v1 = mink_walk_cell(wb.max.y, g.inv_cell);
    int a = mink_walk_cell(lo, g.inv_cell), b = mink_walk_cell(hi, g.inv_cell);
    int down = k.d.x < 0.0f;
    k.c0 = down ? b : a;
    k.c1 = down ? a : b;
    k.empty = !(lo <= hi) || !(vlo <= vhi);
    *cells = 0.0f;
    if (k.empty) return k;
    /* Rows a column: its share of the move across, the box, the margins and the rounding. */
    float rows = (vhi - vlo) * g.inv_cell + 1.0f;
    if (k.d.x != 0.0f)
        rows = mink_minf(rows, ((mink_absf(k.d.y / k.d.x) * k.cell + (k.q.max.y - k.q.min.y)) + 2.0f * k.margin) *
                                       g.inv_cell + 3.0f);
    *cells = ((hi - lo) * g.inv_cell + 1.0f) * rows;
    /* Past 2^30 cells from the origin every cell clamps to the edge's (mink_grid_column): there the
     * walk's arithmetic no longer says which cells it crosses, and the scan answers instead. */
    float edge = 0x1p29f;
    if (!(mink_maxf(mink_absf(lo), mink_absf(hi)) * g.inv_cell < edge) ||
        !(mink_maxf(mink_absf(vlo), mink_absf(vhi)) * g.inv_cell < edge))
        *cells = MINK_INF;
    return k;
}

/// Whether column c is one of the walk's.
MINK_INLINE int mink_walk_has(const mink_walk *k, int c) {
    int lo = k->c0 < k->c1 ? k->c0 : k->c1, hi = k->c0 < k->c1 ? k->c1 : k->c0;
    return !k->empty & (c >= lo) & (c <= hi);
}

/// The step from one column to the next: down when the query moves towards lower u.
MINK_INLINE int mink_walk_step(const mink_walk *k) { return k->d.x < 0.0f ? -1 : 1; }

/// Column c: when the query's box enters it (*t0), and its rows *r0 .. *r1 (none: r0 > r1).
MINK_INLINE void mink_walk_column(const mink_walk *k, int c, float *t0, int *r0, int *r1) {
    float lo = (float)c * k->cell - k->margin, hi = (float)(c + 1) * k->cell + k->margin;
    float ta = 0.0f, tb = 1.0f, du = k->d.x, dv = k->d.y;
    if (du > 0.0f) {
        ta = (lo - k->q.max.x) / du;
        tb = (hi - k->q.min.x) / du;
    } else if (du < 0.0f) {
        ta = (hi - k->q.min.x) / du;
        tb = (lo - k->q.max.x) / du;
    }
    ta = mink_maxf(ta, 0.0f);
    tb = mink_minf(tb, 1.0f);
    *t0 = ta;
    float va = dv * ta, vb = dv * tb;
    float vlo = (k->q.min.y + mink_minf(va, vb)) - k->margin, vhi = (k->q.max.y + mink_maxf(va, vb)) + k->margin;
    float inv = 1.0f / k->cell;
    int a = mink_walk_cell(vlo, inv), b = mink_walk_cell(vhi, inv);
    *r0 = a > k->v0 ? a : k->v0;
    *r1 = b < k->v1 ? b : k->v1;
    if (!(ta <= tb)) *r0 = 1, *r1 = 0;
}

/// Whether (c, r) is the first of the walk's cells that a body with grid box gb covers: there the
/// body is counted, in no other of its cells.
MINK_INLINE int mink_walk_home(const mink_walk *k, mink_aabb gb, int c, int r) {
    mink_aabb b = mink_walk_box_uv(gb, k->swap);
    float inv = 1.0f / k->cell;
    int a0 = mink_walk_cell(b.min.x, inv), a1 = mink_walk_cell(b.max.x, inv);
    int b0 = mink_walk_cell(b.min.y, inv), b1 = mink_walk_cell(b.max.y, inv);
    int step = mink_walk_step(k);
    for (int x = step > 0 ? a0 : a1; step > 0 ? x <= a1 : x >= a0; x += step) {
        if (!mink_walk_has(k, x)) continue;
        float t0;
        int r0, r1;
        mink_walk_column(k, x, &t0, &r0, &r1);
        int lo = r0 > b0 ? r0 : b0, hi = r1 < b1 ? r1 : b1;
        if (lo <= hi) return (x == c) & (lo == r);
    }
    return 0;
}

/// The first sorted entry of bucket `cell` among keys [0, n): a binary search.
MINK_INLINE uint32_t mink_query_bucket_start(mink_world_view w, uint32_t n, uint32_t cell) {
    uint32_t lo = 0u, hi = n, key = cell * 2u;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2u;
        if (w.keys[mid] < key) lo = mid + 1u;
        else hi = mid;
    }
    return lo;
}

/* ---- one query ------------------------------------------------------------------------------------ */

/// What a query has found so far: its first hit (MINK_QUERY_FIRST), or how many (the others).
typedef struct mink_query_found {
    mink_world_hit first;
    uint32_t n;
    MINK_GLOBAL mink_world_hit *out; ///< MINK_QUERY_WRITE: where its hits go
    uint32_t first_at;               ///< where first's body sits in the arrays (first.body: its public slot)
    uint32_t skip;                   ///< a slot the query does not see (a body trying a move: itself)
    uint32_t category, mask;         ///< a body is seen only when these meet its own (a move: the mover's)
    uint32_t swept_only;             ///< a push: the bodies it starts inside are not met
} mink_query_found;

/// Query q meets body j: kept as its first hit, counted, or written (at + n).
MINK_INLINE void mink_query_meet_with(const mink_world_view *wv, const mink_step_state *sp, const mink_world_query *qp,
                                      uint32_t hulls, uint32_t j, mink_query_found *f) {
    mink_world_view w = *wv;
    mink_step_state st = *sp;
    mink_world_query q = *qp;
    mink_body_props pj = w.props[j];
    if (j == f->skip || (pj.category & f->mask) == 0u || (pj.mask & f->category) == 0u) return;
    mink_hit hit = mink_query_sweep(w, q, j, hulls);
    /* A body the sweep overflowed against (INVALID: coordinates near the float limit) is not met,
     * as in a step: what a query meets must not depend on which cells its walk visited. */
    if (!(hit.flags & MINK_HIT_CONTACT) || (f->swept_only && (hit.flags & MINK_HIT_OVERLAP))) return;
    if (st.query.mode == MINK_QUERY_MOVE) { /* the step's order: t, then id, then slot */
        uint32_t b = f->first_at;
        if (f->first.hit.flags == 0u ||
            mink_hit_before(hit, w.ids[j], w.slot_of[j], f->first.hit, w.ids[b], f->first.body)) {
            f->first.hit = hit;
            f->first.body = w.slot_of[j];
            f->first_at = j;
        }
        return;
    }
    mink_world_hit h;
    h.hit = hit;
    h.body = w.slot_of[j];
    h.reserved = 0u;
    if (st.query.mode == MINK_QUERY_FIRST) {
        if (f->first.hit.flags == 0u || mink_query_before(h, f->first)) f->first = h;
        return;
    }
    if (st.query.mode == MINK_QUERY_WRITE) f->out[f->n] = h;
    f->n++;
}

/* In a kernel, mink_query_meet_with is one function, its arguments by address: inlined at the
 * walk's three call sites, inside a move's iterations, it made the move kernels' build several
 * times longer (docs/benchmarks.md, "The program in parts"). One for each build of the sweeps
 * (kernels/world.cl), the shapes in its literal: an argument that is a literal only once the
 * kernel is inlined does not reach into a function that is not. The C compiler inlines it. */
#ifdef MINK_OPENCL
MINK_OUTLINE void mink_query_meet_boxes(const mink_world_view *w, const mink_step_state *st, const mink_world_query *q,
                                        uint32_t j, mink_query_found *f) {
    mink_query_meet_with(w, st, q, 0u, j, f);
}
MINK_OUTLINE void mink_query_meet_polygons(const mink_world_view *w, const mink_step_state *st,
                                           const mink_world_query *q, uint32_t j, mink_query_found *f) {
    mink_query_meet_with(w, st, q, MINK_HULLS_POLYGONS, j, f);
}
MINK_OUTLINE void mink_query_meet_any(const mink_world_view *w, const mink_step_state *st, const mink_world_query *q,
                                      uint32_t j, mink_query_found *f) {
    mink_query_meet_with(w, st, q, st->params.hulls, j, f);
}
#endif
MINK_INLINE void mink_query_meet(const mink_world_view *w, const mink_step_state *st, const mink_world_query *q,
                                 uint32_t j, mink_query_found *f) {
#ifdef MINK_OPENCL
    if (st->params.hulls == 0u) mink_query_meet_boxes(w, st, q, j, f);
    else if (st->params.hulls == MINK_HULLS_POLYGONS) mink_query_meet_polygons(w, st, q, j, f);
    else mink_query_meet_any(w, st, q, j, f);
#else
    mink_query_meet_with(w, st, q, st->params.hulls, j, f);
#endif
}

/// Sorts hits [at, at + n) by mink_query_before: a heap sort, in place and without recursion.
MINK_INLINE void mink_query_sort(MINK_GLOBAL mink_world_hit *h, uint32_t n) {
    for (uint32_t end = n, start = n / 2u; end > 1u;) {
        if (start > 0u) {
            start--;
        } else {
            end--;
            mink_world_hit t = h[0];
            h[0] = h[end];
            h[end] = t;
        }
        for (uint32_t root = start;;) { /* sift h[root] down within [0, end) */
            uint32_t child = 2u * root + 1u;
            if (child >= end) break;
            if (child + 1u < end && mink_query_before(h[child], h[child + 1u])) child++;
            if (!mink_query_before(h[root], h[child])) break;
            mink_world_hit t = h[root];
            h[root] = h[child];
            h[child] = t;
            root = child;
        }
    }
}

/// Query q (valid, its box qb) meets every body the call sees once (mink_query_meet): in the
/// cells of its walk (in one of them, mink_walk_home) or, when the walk would visit more cells
/// than there are slots, by a scan of the slots; the large bodies each once after the walk.
MINK_INLINE void mink_query_walk(mink_world_view w, mink_step_state st, mink_world_query q, mink_aabb qb,
                                 mink_query_found *f) {
    uint32_t first_only = st.query.mode != MINK_QUERY_COUNT && st.query.mode != MINK_QUERY_WRITE;
    mink_aabb swept;
    swept.min = mink_v2(mink_minf(qb.min.x, qb.min.x + q.translation.x), mink_minf(qb.min.y, qb.min.y + q.translation.y));
    swept.max = mink_v2(mink_maxf(qb.max.x, qb.max.x + q.translation.x), mink_maxf(qb.max.y, qb.max.y + q.translation.y));
    uint32_t large = w.cells[w.count + 1u], cells_end = st.entries - large;
    float visits = 0.0f;
    mink_walk walk = mink_walk_make(st.grid, st.query.world, qb, q.translation, &visits);
    if (visits > (float)w.count) {
        for (uint32_t j = 0; j < w.count; j++) /* a scan of every slot the call sees */
            if (mink__aabb_is_valid(w.bounds[j]) && mink_bounds_overlap(w.bounds[j], swept)) mink_query_meet(&w, &st, &q, j, f);
        return;
    }
    if (cells_end > 0u && !walk.empty) {
        int step = mink_walk_step(&walk);
        for (int c = walk.c0;; c += step) {
            float t0;
            int r0, r1;
            mink_walk_column(&walk, c, &t0, &r0, &r1);
            /* Past the first hit's t, no column holds an earlier one (nor a tie of a lower slot:
             * the body of an equal t would be in a cell entered by then). */
            if (first_only && f->first.hit.flags != 0u && t0 > f->first.hit.t) break;
            for (int r = r0; r <= r1; r++) {
                uint32_t x = (uint32_t)(walk.swap ? r : c), y = (uint32_t)(walk.swap ? c : r);
                uint32_t cell = mink_grid_bucket(st.grid, x, y);
                for (uint32_t e = mink_query_bucket_start(w, cells_end, cell); e < cells_end && w.keys[e] >> 1 == cell; e++) {
                    uint32_t j = w.order[e];
                    if (!mink_bounds_overlap(w.bounds[j], swept)) continue;
                    if (!first_only && !mink_walk_home(&walk, w.bounds[j], c, r)) continue;
                    mink_query_meet(&w, &st, &q, j, f);
                }
            }
            if (c == walk.c1) break;
        }
    }
    for (uint32_t e = cells_end; e < st.entries; e++)
        if (mink_bounds_overlap(w.bounds[w.order[e]], swept)) mink_query_meet(&w, &st, &q, w.order[e], f);
}

/// Whether a query is valid (mink/world.h), and then its box where it starts in *qb.
MINK_INLINE int mink_query_valid(mink_world_view w, mink_query_params p, mink_world_query q, mink_aabb *qb) {
    int valid = mink__vec2_is_valid(q.position) & mink__vec2_is_valid(q.translation) & (q.reserved == 0u) &
                ((q.shape == MINK_QUERY_POINT) | (q.shape < p.shapes));
    if (!valid) return 0;
    *qb = mink_query_box(w, q);
    mink_aabb end;
    end.min = mink_v2(qb->min.x + q.translation.x, qb->min.y + q.translation.y);
    end.max = mink_v2(qb->max.x + q.translation.x, qb->max.y + q.translation.y);
    return mink__aabb_is_valid(*qb) & mink__aabb_is_valid(end);
}

MINK_INLINE mink_query_found mink_query_found_none(mink_query_params p) {
    mink_query_found f;
    f.first.hit = mink_hit_none();
    f.first.body = MINK_WORLD_DEAD;
    f.first.reserved = 0u;
    f.n = 0u;
    f.out = 0;
    f.first_at = MINK_WORLD_DEAD;
    f.skip = MINK_WORLD_DEAD;
    f.category = p.category;
    f.mask = p.mask;
    f.swept_only = 0u;
    return f;
}

/// Query k of a call: its first hit (MINK_QUERY_FIRST, into query_hits[k]), its hits counted
/// (MINK_QUERY_COUNT, into query_found[k]) or written from query_found[k] (scanned) and sorted
/// (MINK_QUERY_WRITE: unless they go past the capacity).
MINK_INLINE void mink_query_item(mink_world_view w, mink_step_state st, uint32_t k) {
    mink_query_params p = st.query;
    mink_world_query q = w.queries[k];
    mink_query_found f = mink_query_found_none(p);
    f.out = w.query_hits;
    if (p.mode == MINK_QUERY_WRITE) {
        f.out = w.query_hits + w.query_found[k];
        if (w.query_found[k + 1u] == w.query_found[k] || w.query_found[k + 1u] > p.capacity) return;
    }
    mink_aabb qb;
    qb.min = qb.max = mink_v2(0.0f, 0.0f);
    if (!mink_query_valid(w, p, q, &qb)) {
        if (p.mode == MINK_QUERY_FIRST) f.first.hit = mink_hit_invalid();
        if (p.mode == MINK_QUERY_FIRST) w.query_hits[k] = f.first;
        if (p.mode == MINK_QUERY_COUNT) w.query_found[k] = 0u;
        return;
    }
    mink_query_walk(w, st, q, qb, &f);
    if (p.mode == MINK_QUERY_FIRST) w.query_hits[k] = f.first;
    if (p.mode == MINK_QUERY_COUNT) w.query_found[k] = f.n;
    if (p.mode == MINK_QUERY_WRITE) mink_query_sort(f.out, f.n);
}

/// A try of a move's query for mover i (its props pr) from p by m: its earliest hit, as the step's
/// mink_earliest_contact (with swept_only, as its pushes'), against the world as it stands.
MINK_INLINE mink_world_hit mink_query_move_first(mink_world_view w, mink_step_state st, uint32_t i, mink_body_props pr,
                                                 mink_vec2 p, mink_vec2 m, uint32_t swept_only) {
    mink_query_found f = mink_query_found_none(st.query);
    f.skip = i;
    f.category = pr.category;
    f.mask = pr.mask;
    f.swept_only = swept_only;
    mink_world_query sub;
    sub.position = p;
    sub.translation = m;
    sub.shape = w.shape_of[i];
    sub.reserved = 0u;
    mink_aabb qb;
    if (mink_is_dynamic(pr) && mink_query_valid(w, st.query, sub, &qb)) mink_query_walk(w, st, sub, qb, &f);
    return f.first;
}

/// Move k of a check call (MINK_QUERY_MOVE): the body at index queries[k].reserved tries its
/// translation from where it stands, against every body it meets (its category and mask against
/// theirs; not sensors, not itself) standing still, as a step takes a dynamic body past static
/// ones (mink_resolve_item): up to `iterations` contacts, each advanced to and left by its skin, or
/// pushed out along the penetration vector when it starts inside (swept, and no farther in all
/// than its push reach, as the step's mink_pushed); STOP stops, SLIDE drops the closing normal
/// part of what is left of the move, BOUNCE reflects it × restitution; the path is never longer
/// than the translation, and when no iteration is left it stays at its last contact. Nothing
/// moves: moves[k] receives where it would end, its first contact and how many it took. A body that is not dynamic (static, kinematic, a sensor)
/// moves through everything in a step, and so here.
MINK_INLINE void mink_query_move_item(mink_world_view w, mink_step_state st, uint32_t k) {
    mink_world_query q = w.queries[k];
    uint32_t i = q.reserved, sid = w.shape_of[i];
    mink_body_props pr = w.props[i];
    mink_vec2 p = w.pos[i], m = q.translation, v = m, move = m;
    mink_world_move out;
    out.end = p;
    out.contacts = 0u;
    out.reserved = 0u;
    out.first.hit = mink_hit_none();
    out.first.body = MINK_WORLD_DEAD;
    out.first.reserved = 0u;
    if (!mink__vec2_is_valid(m)) {
        out.first.hit = mink_hit_invalid();
        w.query_moves[k] = out;
        return;
    }
    MINK_GLOBAL const mink_shape *shape = w.shapes + sid;
    float budget = mink_length(m), travelled = 0.0f, tau = 0.0f;
    float skin = st.params.skin > 0.0f ? st.params.skin : mink_body_skin(mink_shape_bounds(shape, p), budget);
    float reach = mink_push_reach(shape); /* the step's pushes, all together (core/step.h) */
    for (uint32_t it = 0u; it < st.params.iterations; it++) {
        mink_world_hit best = mink_query_move_first(w, st, i, pr, p, move, 0u);
        if (best.hit.flags == 0u) { /* free: the rest of the move */
            p = mink_v2(p.x + move.x, p.y + move.y);
            break;
        }
        if (out.contacts == 0u) out.first = best;
        out.contacts++;
        float span = 1.0f - tau;
        mink_vec2 n = best.hit.normal;
        if (best.hit.flags & MINK_HIT_OVERLAP) { /* pushed out as the step pushes (mink_pushed) */
            float o = mink_minf(best.hit.depth + skin, reach);
            reach -= o;
            mink_vec2 push = mink_v2(n.x * o, n.y * o);
            mink_world_hit stop = mink_query_move_first(w, st, i, pr, p, push, 1u);
            float kp = stop.hit.flags == 0u ? 1.0f : stop.hit.t;
            mink_vec2 clear = stop.hit.flags == 0u ? mink_v2(0.0f, 0.0f) : mink_v2(stop.hit.normal.x * skin, stop.hit.normal.y * skin);
            p = mink_v2((p.x + push.x * kp) + clear.x, (p.y + push.y * kp) + clear.y);
        } else {
            p = mink_v2((p.x + move.x * best.hit.t) + n.x * skin, (p.y + move.y * best.hit.t) + n.y * skin);
            travelled += mink_length(move) * best.hit.t;
            tau = tau + span * best.hit.t;
        }
        if (pr.response == (uint32_t)MINK_RESPONSE_STOP) break;
        float vn = v.x * n.x + v.y * n.y;
        if (vn < 0.0f) {
            float e = pr.response == (uint32_t)MINK_RESPONSE_BOUNCE ? pr.restitution : 0.0f;
            float dv = vn * (1.0f + e);
            v = mink_v2(v.x - n.x * dv, v.y - n.y * dv);
        }
        span = 1.0f - tau;
        move = mink_v2(v.x * span, v.y * span);
        float len = mink_length(move), left = mink_maxf(budget - travelled, 0.0f);
        if (len > left) { /* never farther than the translation */
            float s = left / len;
            move = mink_v2(move.x * s, move.y * s);
        }
    }
    out.end = mink__vec2_is_valid(p) ? p : w.pos[i];
    w.query_moves[k] = out;
}

#endif /* MINK_CORE_QUERY_H */
