/* core/step.h — one world step, item by item, for the host and the device.
 *
 * Valid C99 and OpenCL C, under the rules of core/geom.h. A world step is a handful of passes; each pass
 * here is a function of one item (a body, a sorted rank, a pair, a block) that reads and writes
 * arrays through a mink_world_view. The kernels in kernels/world.cl call one item per work-item;
 * the scalar world (host/world_scalar.c) calls the same functions in a loop. So both paths compute
 * every value with the same operations, and agree bit for bit.
 *
 * The only thing that differs is the order in which concurrent work-items append to a list
 * (a body's contacts, the step's events). Nothing depends on that order: a body picks its contact by
 * a total order on (t, the other's id, the other's handle), and the host sorts events.
 */
#ifndef MINK_CORE_STEP_H
#define MINK_CORE_STEP_H

#include "core/body.h"
#include "mink/world.h"

#ifdef MINK_OPENCL
#define MINK_GLOBAL __global
#define MINK_ATOMIC_INC(p) atomic_inc(p)
/* OpenCL 1.2 has popcount, not ctz: x & -x keeps the lowest bit set; less one, the bits below it. */
#define MINK_CTZ(x) popcount(((x) & (0u - (x))) - 1u)
#elif defined(__GNUC__)
#define MINK_GLOBAL
#define MINK_ATOMIC_INC(p) ((*(p))++)
#define MINK_CTZ(x) ((uint32_t)__builtin_ctz(x))
#else
#define MINK_GLOBAL
#define MINK_ATOMIC_INC(p) ((*(p))++)
static inline uint32_t mink__ctz(uint32_t x) {
    uint32_t n = 0u;
    for (; (x & 1u) == 0u; x >>= 1) n++;
    return n;
}
#define MINK_CTZ(x) mink__ctz(x)
#endif

/* ---- what a world holds ---------------------------------------------------------------------- */



/// A body's properties that steps never change. 20 bytes.
typedef struct mink_body_props {
    float inv_mass;    ///< 0: static or kinematic (moves by its velocity, is never pushed)
    float restitution; ///< [0, 1], for BOUNCE
    uint32_t response; ///< mink_response
    uint32_t category; ///< bits this body is
    uint32_t mask;     ///< bits it meets: a pair meets when each one's category hits the other's mask
} mink_body_props;


/// One end of a candidate pair in its body's list, written by the narrowphase: the other body with
/// what resolution asks of it, and the pair's hit as this body sees it. Resolution reads a body's
/// list in sequence, never the pair or the other's props. 36 bytes.
typedef struct mink_contact {
    uint32_t other; ///< the other body's slot | MINK_CONTACT_SENSOR | MINK_CONTACT_DYNAMIC
    mink_hit hit;
} mink_contact;
#define MINK_CONTACT_SENSOR 0x80000000u  ///< the other body is a sensor
#define MINK_CONTACT_DYNAMIC 0x40000000u ///< the other body is dynamic
#define MINK_CONTACT_SLOT 0x3fffffffu    ///< the slot bits (MINK_WORLD_MAX_BODIES fits)

/// A grid entry (a body in a cell) with what the pair scan and the narrowphase ask of its body,
/// copied beside it so both read entries in sequence, never a body's arrays at random. 64 bytes.
typedef struct mink_grid_entry {
    mink_aabb box;     ///< the body's box over the step
    mink_vec2 pos;     ///< its position and velocity at the step's start
    mink_vec2 vel;
    uint32_t slot;     ///< the body
    uint32_t shape;    ///< its shape id
    uint32_t category; ///< its props' category and mask
    uint32_t mask;
    uint32_t flags;    ///< MINK_CONTACT_SENSOR, MINK_CONTACT_DYNAMIC: what it is (mink_world_wants)
    uint32_t pad[3];
} mink_grid_entry;



/// Radix sort: 8 bits a pass, up to four passes over 32-bit keys.
#define MINK_RADIX_BINS 256u

/// The broadphase grid. A body whose box covers more cells than this is "large": it is tested
/// against every body instead of going into cells (arena walls fit; a world-sized body does not).
/// With at most MINK_WORLD_MAX_BODIES bodies, a step's entries stay below 2^32.
#define MINK_GRID_MAX_CELLS 1000u
/// Words of the step's measure: the keys of the world box's edges, then a histogram of box sizes
/// by power of two (class c: the box's larger side is below 2^(c - 64)).
#define MINK_MEASURE_WORDS (4u + 128u)

/// The grid a step uses, chosen by the host from the measure (the same on both paths).
typedef struct mink_grid {
    mink_vec2 origin; ///< the world box's lower corner
    float inv_cell;   ///< 1 / the cell size (a power of two)
    uint32_t width, height; ///< cells; width × height < 2^31 (a key is the cell × 2 + the crowd bit)
    /// The crowd: a filter (category, mask, contact flags) under which two bodies never meet
    /// (mink_filters_meet is 0 for two of them), such as bullets that ignore bullets or a map of
    /// static tiles. Its entries sort last in each cell and scan nothing. Flags MINK_GRID_NO_CROWD:
    /// none.
    uint32_t crowd_category, crowd_mask, crowd_flags;
} mink_grid;
#define MINK_GRID_NO_CROWD 0xffffffffu

/* The arrays a step's passes see, listed once: X(NAME, field, type), each a pointer to type.
 * The host's mink_world_buf (MINK_WB_<NAME>), the view below, the scalar backend's view and every
 * pass kernel's parameters (kernels/world.cl) are made from this list, in its order. */
#define MINK_WORLD_ARRAYS(X)                                                                       \
    X(SHAPES, shapes, const mink_shape)              /* per shape */                               \
    X(SHAPE_OF, shape_of, const uint32_t)            /* per slot: shape id, or MINK_WORLD_DEAD */  \
    X(PROPS, props, const mink_body_props)                                                         \
    X(IDS, ids, const uint64_t)                                                                    \
    X(POS, pos, const mink_vec2)                                                                   \
    X(VEL, vel, const mink_vec2)                                                                   \
    X(BOUNDS, bounds, mink_aabb)                     /* per slot, over the step */                 \
    X(RECORDS, records, mink_grid_entry)             /* per slot: its grid entry, with its bounds */ \
    X(MEASURE, measure, uint32_t)                    /* MINK_MEASURE_WORDS: the world's measure */ \
    X(PARTIAL, partial, uint32_t)                    /* MINK_MEASURE_WORDS per measure block */    \
    X(CELLS, cells, uint32_t)                        /* per slot + 1: grid entries, then where they start */ \
    X(KEYS, keys, uint32_t)                          /* per grid entry: its cell, then sorted */   \
    X(ORDER, order, uint32_t)                        /* per grid entry: its slot, sorted with the keys */ \
    X(ENTRIES, entries, mink_grid_entry)             /* per sorted entry: its body's box and filter */ \
    X(KEPT, kept, uint32_t)                          /* per sorted entry: which of the next 32 it pairs with */ \
    X(FOUND, found, uint32_t)                        /* per pair-finding item + 1: pairs, then where they go */ \
    X(PAIRS, pairs, mink_world_pair)                                                               \
    X(PAIR_ENTRIES, pair_entries, mink_world_pair)   /* per pair: its sorted entries (DEAD: a large body) */ \
    X(ADJ_START, adj_start, uint32_t)                /* per slot + 1: where its contacts start */  \
    X(ADJ_FILL, adj_fill, uint32_t)                  /* per slot: contacts written so far */       \
    X(CONTACTS, contacts, mink_contact)              /* per pair end, grouped by body */           \
    X(POS_OUT, pos_out, mink_vec2)                                                                 \
    X(VEL_OUT, vel_out, mink_vec2)                                                                 \
    X(EVENTS, events, mink_event)                    /* per event */                               \
    X(EVENT_COUNT, event_count, uint32_t)            /* one word: events appended */

/// A step's parameters.
typedef struct mink_step_params {
    float dt;
    float skin;          ///< > 0: the gap left after a contact; 0: each body's own (mink_body_skin)
    uint32_t iterations; ///< contacts a body may take in one step, >= 1
    uint32_t polygons;   ///< whether the world has polygon shapes; a kernel that passes a literal 0
                         ///< is built without their sweeps (see mink_sweep_placed)
} mink_step_params;

/* What a pass takes beyond the arrays: the same struct on the host and, by value, in every pass
 * kernel (its size is in the world's layout check). All fields are 4 bytes: no padding. */
typedef struct mink_step_state {
    mink_step_params params;
    mink_grid grid;
    uint32_t slots, entries, items, pairs, event_capacity;
    uint32_t blocks; /* MINK_PASS_MEASURE: measure blocks */
    uint32_t emit;   /* pairs: 0 count them, 1 write them */
} mink_step_state;

/// The arrays a step reads and writes (MINK_WORLD_ARRAYS), and the slots. Each pass uses some.
#define MINK_VIEW_FIELD(NAME, field, type) MINK_GLOBAL type *field;
typedef struct mink_world_view {
    uint32_t count; /* slots, alive or dead */
    MINK_WORLD_ARRAYS(MINK_VIEW_FIELD)
    uint32_t event_capacity;
} mink_world_view;
#undef MINK_VIEW_FIELD

/* ---- shapes placed in the world ------------------------------------------------------------------ */

/// Shape s's box at position p (s a box).
MINK_INLINE mink_aabb mink_shape_aabb_at(MINK_GLOBAL const mink_shape *s, mink_vec2 p) {
    mink_aabb b;
    b.min = mink_v2(s->geom.aabb.min.x + p.x, s->geom.aabb.min.y + p.y);
    b.max = mink_v2(s->geom.aabb.max.x + p.x, s->geom.aabb.max.y + p.y);
    return b;
}

/// Shape s's circle at position p (s a circle).
MINK_INLINE mink_circle mink_shape_circle_at(MINK_GLOBAL const mink_shape *s, mink_vec2 p) {
    mink_circle c = s->geom.circle;
    c.center = mink_v2(s->geom.circle.center.x + p.x, s->geom.circle.center.y + p.y);
    return c;
}

/// The body a shape makes at position p, moving by `move` over the step.
MINK_INLINE mink_body mink_shape_place(MINK_GLOBAL const mink_shape *s, mink_vec2 p, mink_vec2 move) {
    /* Not mink_body_zero: a body placed here never leaves the step, and zeroing a polygon's room
     * for every box and circle, then copying the body (stores forwarded into wider loads), was
     * half the scalar resolution's time (bench_world, 10^5 bodies: 4.8 → 2.4 ms). The sweeps
     * read only the member the type names. */
    mink_body b;
    b.type = s->type;
    b.velocity = move;
    b.angular_velocity = 0.0f;
    if (s->type == MINK_SHAPE_AABB) {
        b.shape.aabb = mink_shape_aabb_at(s, p);
    } else if (s->type == MINK_SHAPE_CIRCLE) {
        b.shape.circle = mink_shape_circle_at(s, p);
    } else if (s->type == MINK_SHAPE_POLYGON) {
        b.shape.polygon = s->geom.polygon;
        b.shape.polygon.position = mink_v2(s->geom.polygon.position.x + p.x, s->geom.polygon.position.y + p.y);
    }
    return b;
}

/// mink_sweep_bodies_linear over dt 1 of shape a at pa moving by ma and shape b at pb moving by
/// mb, with the same calls and bits. Boxes and circles are swept as themselves and shapes are
/// read through pointers: a mink_body or mink_shape has room for a polygon, and copying two of
/// each a pair was the scalar narrowphase's largest cost (bench_world at 10^5: narrowphase
/// 5.2-5.8 -> 2.8 ms, resolution 2.3 -> 1.8). `polygons` 0 says neither is a polygon: a literal
/// 0 leaves the polygon sweeps out of the caller's code, which made PoCL's narrowphase and
/// resolution kernels 1.6-2x faster though the sweeps were never called (kernels/world.cl).
MINK_INLINE mink_hit mink_sweep_placed(MINK_GLOBAL const mink_shape *a, mink_vec2 pa, mink_vec2 ma,
                                       MINK_GLOBAL const mink_shape *b, mink_vec2 pb, mink_vec2 mb,
                                       uint32_t polygons) {
    uint32_t ta = a->type, tb = b->type;
    if (ta == MINK_SHAPE_AABB && tb == MINK_SHAPE_AABB)
        return mink__sweep_aabb(mink_shape_aabb_at(a, pa), ma, mink_shape_aabb_at(b, pb), mb, 1.0f);
    if (ta == MINK_SHAPE_CIRCLE && tb == MINK_SHAPE_CIRCLE)
        return mink__sweep_circle(mink_shape_circle_at(a, pa), ma, mink_shape_circle_at(b, pb), mb, 1.0f);
    if (ta == MINK_SHAPE_CIRCLE && tb == MINK_SHAPE_AABB)
        return mink__sweep_circle_aabb(mink_shape_circle_at(a, pa), ma, mink_shape_aabb_at(b, pb), mb, 1.0f);
    if (ta == MINK_SHAPE_AABB && tb == MINK_SHAPE_CIRCLE)
        return mink_hit_mirror(
            mink__sweep_circle_aabb(mink_shape_circle_at(b, pb), mb, mink_shape_aabb_at(a, pa), ma, 1.0f));
    if (!polygons) return mink_hit_invalid(); /* a polygon where none was said to be */
    return mink_sweep_bodies_linear(mink_shape_place(a, pa, ma), mink_shape_place(b, pb, mb), 1.0f);
}

/// The box around a shape at p (a polygon's: its bounding circle's).
MINK_INLINE mink_aabb mink_shape_bounds(MINK_GLOBAL const mink_shape *s, mink_vec2 p) {
    mink_aabb b;
    b.min = b.max = p;
    if (s->type == MINK_SHAPE_AABB) {
        b.min = mink_v2(s->geom.aabb.min.x + p.x, s->geom.aabb.min.y + p.y);
        b.max = mink_v2(s->geom.aabb.max.x + p.x, s->geom.aabb.max.y + p.y);
    } else {
        mink_vec2 c = s->type == MINK_SHAPE_CIRCLE ? s->geom.circle.center : s->geom.polygon.position;
        float r = s->type == MINK_SHAPE_CIRCLE ? s->geom.circle.radius : s->geom.polygon.radius;
        c = mink_v2(c.x + p.x, c.y + p.y);
        b.min = mink_v2(c.x - r, c.y - r);
        b.max = mink_v2(c.x + r, c.y + r);
    }
    return b;
}

/// The gap a body keeps from what it touched: a contact leaves it this far out along the normal, so
/// rounding never leaves it overlapping, and a box sliding on a floor of tiles never meets a
/// seam. 2^-12 of its size plus 2^-19 of its coordinates and its move (a few ulps of either).
MINK_INLINE float mink_body_skin(mink_aabb box, float move_length) {
    float size = mink_maxf(box.max.x - box.min.x, box.max.y - box.min.y);
    float far = mink_maxf(mink_maxf(mink_absf(box.min.x), mink_absf(box.max.x)),
                          mink_maxf(mink_absf(box.min.y), mink_absf(box.max.y)));
    return size * 0.000244140625f + (far + move_length) * 0.0000019073486328125f;
}

/// A float's bits as an unsigned key that sorts as the float does (no NaN; -0 made +0 first).
MINK_INLINE uint32_t mink_sort_key(float x) {
    uint32_t u = mink_float_bits(x + 0.0f);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

MINK_INLINE int mink_is_sensor(mink_body_props p) { return p.response == (uint32_t)MINK_RESPONSE_SENSOR; }

/// Whether a body's motion answers to contacts (pushed, stopped, deflected).
MINK_INLINE int mink_is_dynamic(mink_body_props p) { return p.inv_mass > 0.0f && !mink_is_sensor(p); }

/// What a contact with body p is: MINK_CONTACT_SENSOR, MINK_CONTACT_DYNAMIC or neither.
MINK_INLINE uint32_t mink_contact_flags(mink_body_props p) {
    return (mink_is_sensor(p) ? MINK_CONTACT_SENSOR : 0u) | (mink_is_dynamic(p) ? MINK_CONTACT_DYNAMIC : 0u);
}

/// The filter rule on two bodies' category, mask and contact flags: each one's category hits the
/// other's mask, and one of them moves in answer to contacts or reports them. Computed without
/// branches (the pair scan applies it to a third of its checks, in no pattern a predictor learns).
MINK_INLINE int mink_filters_meet(uint32_t category_a, uint32_t mask_a, uint32_t flags_a, uint32_t category_b,
                                  uint32_t mask_b, uint32_t flags_b) {
    return ((category_a & mask_b) != 0u) & ((category_b & mask_a) != 0u) & ((flags_a | flags_b) != 0u);
}

/// Whether the world cares about two bodies meeting: their filters agree, and one of them moves in
/// answer to it or reports it. Two static (or kinematic) bodies are never a pair.
MINK_INLINE int mink_world_wants(mink_body_props a, mink_body_props b) {
    return mink_filters_meet(a.category, a.mask, mink_contact_flags(a), b.category, b.mask, mink_contact_flags(b));
}

MINK_INLINE int mink_bounds_overlap(mink_aabb a, mink_aabb b) {
    return (a.min.x <= b.max.x) & (b.min.x <= a.max.x) & (a.min.y <= b.max.y) & (b.min.y <= a.max.y);
}

/// Block g of n items split into `blocks` runs: where it begins (block g + 1's begin is its end).
MINK_INLINE uint32_t mink_block_begin(uint32_t g, uint32_t blocks, uint32_t n) {
    uint32_t per = (n + blocks - 1u) / blocks;
    uint32_t at = g * per;
    return at < n ? at : n;
}

/* ---- pass 1: bounds over the step -------------------------------------------------------------- */

/// Slot i's grid entry (its record), from its arrays and its box over the step.
MINK_INLINE mink_grid_entry mink_grid_entry_of(mink_world_view w, uint32_t i) {
    mink_body_props p = w.props[i];
    mink_grid_entry e;
    e.box = w.bounds[i];
    e.pos = w.pos[i];
    e.vel = w.vel[i];
    e.slot = i;
    e.shape = w.shape_of[i];
    e.category = p.category;
    e.mask = p.mask;
    e.flags = mink_contact_flags(p);
    e.pad[0] = e.pad[1] = e.pad[2] = 0u;
    return e;
}

/// Slot i's box over the step: where it starts, grown by how far it may go in any direction (its
/// speed × dt) and twice its skin. Any direction, because a body that slides or bounces changes
/// course within the step; never farther, because responses never lengthen a body's path (see
/// mink_resolve_item). With w.records, also the body's grid entry (the gather's record), written
/// here while its arrays are read in sequence. A dead slot has no record: no entry names it.
MINK_INLINE void mink_bounds_item(mink_world_view w, mink_step_params sp, uint32_t i) {
    uint32_t sid = w.shape_of[i];
    mink_aabb b;
    if (sid == MINK_WORLD_DEAD) {
        b.min = b.max = mink_v2(MINK_INF, MINK_INF);
        w.bounds[i] = b;
        return;
    }
    mink_vec2 p = w.pos[i], v = w.vel[i];
    b = mink_shape_bounds(w.shapes + sid, p);
    float reach = mink_length(mink_v2(v.x * sp.dt, v.y * sp.dt));
    float skin = sp.skin > 0.0f ? sp.skin : mink_body_skin(b, reach);
    float grow = reach + 2.0f * skin;
    b.min = mink_v2((b.min.x - grow) + 0.0f, (b.min.y - grow) + 0.0f);
    b.max = mink_v2((b.max.x + grow) + 0.0f, (b.max.y + grow) + 0.0f);
    w.bounds[i] = b; /* a box that overflowed is invalid: the broadphase skips it, the body stays */
    if (w.records) w.records[i] = mink_grid_entry_of(w, i); /* its arrays' lines are in the cache now */
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

/// The column (or row) holding coordinate x, clamped to the grid's `size` columns from `origin`.
/// Clamped first, then converted: a conversion to an integer rounds toward zero, which on [0,
/// size - 1] is the floor, so no floor is called (a branch on PoCL, which then would not run the
/// grid's work-items side by side). A NaN clamps to column 0, as it did through the floor.
MINK_INLINE uint32_t mink_grid_column(float x, float origin, float inv_cell, uint32_t size) {
    return (uint32_t)mink_minf(mink_maxf((x - origin) * inv_cell, 0.0f), (float)(size - 1u));
}

/// The cells a box covers, clamped to the grid.
MINK_INLINE void mink_grid_cells(mink_grid g, mink_aabb b, uint32_t *x0, uint32_t *y0, uint32_t *x1, uint32_t *y1) {
    *x0 = mink_grid_column(b.min.x, g.origin.x, g.inv_cell, g.width);
    *y0 = mink_grid_column(b.min.y, g.origin.y, g.inv_cell, g.height);
    *x1 = mink_grid_column(b.max.x, g.origin.x, g.inv_cell, g.width);
    *y1 = mink_grid_column(b.max.y, g.origin.y, g.inv_cell, g.height);
}

/// How many grid entries slot i makes: its cells, or 0 when it is dead, overflowed or large.
MINK_INLINE uint32_t mink_grid_count_item(mink_world_view w, mink_grid g, uint32_t i) {
    /* Without a branch, so PoCL runs the work-items side by side: an invalid box clamps to some
     * cells, then counts none (its sizes may wrap: unsigned, and unused). */
    mink_aabb b = w.bounds[i];
    uint32_t x0, y0, x1, y1;
    mink_grid_cells(g, b, &x0, &y0, &x1, &y1);
    uint32_t nx = x1 - x0 + 1u, ny = y1 - y0 + 1u;
    int in = (w.shape_of[i] != MINK_WORLD_DEAD) & mink__aabb_is_valid(b) & (nx <= MINK_GRID_MAX_CELLS) &
             (ny <= MINK_GRID_MAX_CELLS) & (nx * ny <= MINK_GRID_MAX_CELLS); /* else dead, invalid or large */
    return in ? nx * ny : 0u;
}

/// Whether a slot with c grid entries is large: alive, with a valid box, and in no cell.
MINK_INLINE int mink_grid_large_with(mink_world_view w, uint32_t i, uint32_t c) {
    return c == 0u && w.shape_of[i] != MINK_WORLD_DEAD && mink__aabb_is_valid(w.bounds[i]);
}

/// Whether slot i is large, once its counts are scanned into w.cells (where its entries start).
MINK_INLINE int mink_grid_is_large(mink_world_view w, uint32_t i) {
    return mink_grid_large_with(w, i, w.cells[i + 1u] - w.cells[i]);
}

/// Whether a body is of the grid's crowd (never MINK_GRID_NO_CROWD: no body has those flags).
MINK_INLINE uint32_t mink_grid_in_crowd(mink_grid g, mink_body_props p) {
    return (uint32_t)((p.category == g.crowd_category) & (p.mask == g.crowd_mask) &
                      (mink_contact_flags(p) == g.crowd_flags));
}

/// Writes slot i's entries from w.cells[i] (its counts scanned): the key (the cell, row-major, × 2
/// + 1 for the crowd, so in a cell the crowd's entries come last) and the slot (the sort's value).
/// A slot's entries are in different cells, and a cell's entries are emitted in slot order, so the
/// stable sort leaves each cell's entries in slot order.
MINK_INLINE void mink_grid_emit_item(mink_world_view w, mink_grid g, uint32_t i) {
    uint32_t at = w.cells[i];
    if (w.cells[i + 1u] == at) return;
    uint32_t crowd = mink_grid_in_crowd(g, w.props[i]);
    uint32_t x0, y0, x1, y1;
    mink_grid_cells(g, w.bounds[i], &x0, &y0, &x1, &y1);
    for (uint32_t y = y0; y <= y1; y++)
        for (uint32_t x = x0; x <= x1; x++) {
            w.keys[at] = (y * g.width + x) * 2u + crowd;
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
 * an array with one block. */

MINK_INLINE void mink_scan_sum_block(uint32_t g, uint32_t blocks, uint32_t n, MINK_GLOBAL const uint32_t *a,
                                     MINK_GLOBAL uint32_t *sums) {
    uint32_t lo = mink_block_begin(g, blocks, n), hi = mink_block_begin(g + 1u, blocks, n);
    uint32_t s = 0u;
    for (uint32_t k = lo; k < hi; k++) s += a[k];
    sums[g] = s;
}

MINK_INLINE void mink_scan_top(uint32_t blocks, MINK_GLOBAL uint32_t *sums) {
    uint32_t run = 0u;
    for (uint32_t g = 0; g < blocks; g++) {
        uint32_t s = sums[g];
        sums[g] = run;
        run += s;
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
        run += s;
    }
    if (g + 1u == blocks) a[n] = run; /* the total after the last, as mink_scan_top leaves it */
}

/* ---- pass 3: pairs in cells ----------------------------------------------------------------- */

/// Whether the world wants slots i and j as a pair, and their boxes overlap.
MINK_INLINE int mink_pair_found(mink_world_view w, uint32_t i, uint32_t j) {
    return mink_bounds_overlap(w.bounds[i], w.bounds[j]) && mink_world_wants(w.props[i], w.props[j]);
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
/// entries of a cell in sequence (through order and a body's arrays, each check cost about 20 ns
/// at 10^5 bodies). One record a slot, not one a grid entry the emit pass wrote: 150 bytes a body
/// less (bench_world at 10^5 on PoCL: 642 → 492). From the record, not the body's five arrays:
/// the sort leaves the slots in no order, and at 10^6 bodies reading five arrays at random took
/// this pass 18.5 ms a step, one 64-byte record 6 (PoCL profiling events).
MINK_INLINE void mink_grid_gather_item(mink_world_view w, uint32_t r) {
    w.entries[r] = w.records[w.order[r]];
}

/// Whether the pair scan keeps entries a and b: their boxes overlap and the world wants them
/// (mink_world_wants on the gathered filters), every test computed and combined without branches.
MINK_INLINE int mink_grid_entries_meet(mink_grid_entry a, mink_grid_entry b) {
    return mink_bounds_overlap(a.box, b.box) &
           mink_filters_meet(a.category, a.mask, a.flags, b.category, b.mask, b.flags);
}

/// Whether the pair of sorted entries a and b (in cell `cell`) is found there: they meet, and this
/// cell is the pair's own: the cell holding the lower corner of the two boxes' overlap. So a pair
/// sharing many cells is found once.
MINK_INLINE int mink_grid_pair_here(mink_grid g, uint32_t cell, mink_grid_entry a, mink_grid_entry b) {
    if (!mink_grid_entries_meet(a, b)) return 0;
    uint32_t x = mink_grid_column(mink_maxf(a.box.min.x, b.box.min.x), g.origin.x, g.inv_cell, g.width);
    uint32_t y = mink_grid_column(mink_maxf(a.box.min.y, b.box.min.y), g.origin.y, g.inv_cell, g.height);
    return y * g.width + x == cell;
}

/// The pairs sorted (and gathered) entry r finds: with every later entry in its cell for which
/// mink_grid_pair_here holds. Returns how many, and in w.kept[r] which of the next 32 entries they
/// are (bit k: entry r + 1 + k), so the pass that writes them need not test those again. An entry
/// of the crowd has only the crowd after it in its cell: nothing to test.
MINK_INLINE uint32_t mink_grid_pairs_count(mink_world_view w, mink_grid g, uint32_t entries, uint32_t r) {
    uint32_t key = w.keys[r], cell = key >> 1, found = 0u, kept = 0u;
    mink_grid_entry ei = w.entries[r];
    for (uint32_t s = r + 1u; (key & 1u) == 0u && s < entries && w.keys[s] >> 1 == cell; s++) {
        if (!mink_grid_pair_here(g, cell, ei, w.entries[s])) continue;
        if (s - r <= 32u) kept |= 1u << (s - r - 1u);
        found++;
    }
    w.kept[r] = kept;
    return found;
}

/// Writes entry r's pairs from `at`, in the order mink_grid_pairs_count found them: the kept
/// bits, then, in a cell of more than 32 entries after r, the rest tested again. The slots come
/// from w.order (4 bytes an entry), not the gathered entries (64): one entry in ten has pairs, so
/// this pass reads in no sequence a prefetcher follows, and at 10^6 bodies reading the entries'
/// slots took it twice as long (bench_world, PoCL profiling events: 11.7 -> 5.6 ms a step).
MINK_INLINE void mink_grid_pairs_write(mink_world_view w, mink_grid g, uint32_t entries, uint32_t r, uint32_t at) {
    uint32_t cell = w.keys[r] >> 1, i = w.order[r];
    for (uint32_t kept = w.kept[r]; kept != 0u; kept &= kept - 1u) {
        uint32_t s = r + 1u + MINK_CTZ(kept); /* kept != 0 */
        at = at + mink_pair_emit(w, 1, at, 0u, i, w.order[s], r, s);
    }
    mink_grid_entry ei = w.entries[r];
    for (uint32_t s = r + 33u; s < entries && w.keys[s] >> 1 == cell; s++)
        if (mink_grid_pair_here(g, cell, ei, w.entries[s]))
            at = at + mink_pair_emit(w, 1, at, 0u, i, w.entries[s].slot, r, s);
}

/// The pairs of slot i if it is large: every body it is wanted with and overlaps, except large ones
/// before it (they found i).
MINK_INLINE uint32_t mink_large_pairs_item(mink_world_view w, uint32_t i, int emit, uint32_t at) {
    uint32_t found = 0u;
    if (!mink_grid_is_large(w, i)) return 0u;
    for (uint32_t j = 0; j < w.count; j++) {
        if (j == i || w.shape_of[j] == MINK_WORLD_DEAD || !mink__aabb_is_valid(w.bounds[j])) continue;
        if (j < i && mink_grid_is_large(w, j)) continue;
        if (!mink_pair_found(w, i, j)) continue;
        found = mink_pair_emit(w, emit, at, found, i, j, MINK_WORLD_DEAD, MINK_WORLD_DEAD);
    }
    return found;
}

/* ---- pass 4: each body's list of pairs, sized ------------------------------------------------- */

MINK_INLINE void mink_degree_item(mink_world_view w, uint32_t k) {
    mink_world_pair p = w.pairs[k];
    MINK_ATOMIC_INC(&w.adj_start[p.a]);
    MINK_ATOMIC_INC(&w.adj_start[p.b]);
}

/* ---- pass 5: narrowphase, into the lists ------------------------------------------------------- */

/// Side `slot` of a pair: its sorted grid entry, or for a large body (in no cell) the same values
/// from its arrays.
MINK_INLINE mink_grid_entry mink_narrow_side(mink_world_view w, uint32_t entry, uint32_t slot) {
    return entry != MINK_WORLD_DEAD ? w.entries[entry] : mink_grid_entry_of(w, slot);
}

/// The exact sweep of pair k over the whole step, both bodies on their planned paths, written to
/// both bodies' lists (b's mirrored). The place in each list depends on thread timing; nothing
/// reads the lists in an order that matters (see the file's comment). The bodies are read from
/// the pair's grid entries, which the pair scan left side by side.
MINK_INLINE void mink_narrow_item(mink_world_view w, mink_step_params sp, uint32_t k) {
    mink_world_pair p = w.pairs[k], e = w.pair_entries[k];
    mink_grid_entry ea = mink_narrow_side(w, e.a, p.a), eb = mink_narrow_side(w, e.b, p.b);
    mink_contact ca, cb;
    /* Velocities are the step's moves and dt is 1: later sub-steps sweep the same way. */
    ca.hit = mink_sweep_placed(w.shapes + ea.shape, ea.pos, mink_v2(ea.vel.x * sp.dt, ea.vel.y * sp.dt),
                               w.shapes + eb.shape, eb.pos, mink_v2(eb.vel.x * sp.dt, eb.vel.y * sp.dt),
                               sp.polygons);
    cb.hit = mink_hit_mirror(ca.hit);
    ca.other = p.b | eb.flags;
    cb.other = p.a | ea.flags;
    uint32_t ia = MINK_ATOMIC_INC(&w.adj_fill[p.a]);
    uint32_t ib = MINK_ATOMIC_INC(&w.adj_fill[p.b]);
    w.contacts[w.adj_start[p.a] + ia] = ca;
    w.contacts[w.adj_start[p.b] + ib] = cb;
}

/* ---- pass 6: resolution ------------------------------------------------------------------------ */

MINK_INLINE void mink_emit_event(mink_world_view w, uint32_t i, uint32_t j, mink_hit h, float t0, float span,
                                 uint32_t flags, uint32_t iteration) {
    mink_event e;
    e.a = w.ids[i];
    e.b = w.ids[j];
    e.body_a = i;
    e.body_b = j;
    /* From the sub-step's fraction to the step's; never 1 by rounding. */
    e.t = mink_minf(t0 + h.t * span, 0.99999994f);
    e.t_exit = h.t_exit == MINK_INF ? MINK_INF : t0 + h.t_exit * span;
    e.normal = h.normal;
    e.point = h.point;
    e.depth = h.depth;
    e.flags = h.flags | flags;
    e.iteration = iteration;
    e.reserved = 0u;
    uint32_t at = MINK_ATOMIC_INC(w.event_count);
    if (at < w.event_capacity) w.events[at] = e;
}

/// Whether hit h with body j comes before the best so far: earlier, then the smaller user id, then
/// the smaller handle. A total order, so the pick does not depend on the list's order.
MINK_INLINE int mink_hit_before(mink_hit h, uint64_t id, uint32_t j, mink_hit best, uint64_t best_id,
                                uint32_t best_j) {
    if (h.t != best.t) return h.t < best.t;
    if (id != best_id) return id < best_id;
    return j < best_j;
}

/// The earliest contact of a body of `shape` at p, moving by `move` over what is left of the step
/// (from tau), among its pairs' list [first, last) at iteration `it` (see mink_resolve_item); its
/// slot in *best_j, or MINK_WORLD_DEAD when there is none.
MINK_INLINE mink_hit mink_earliest_contact(mink_world_view w, mink_step_params sp, uint32_t first, uint32_t last,
                                          uint32_t it, MINK_GLOBAL const mink_shape *shape, mink_vec2 p,
                                          mink_vec2 move, float tau, uint32_t *best_j) {
    mink_hit best = mink_hit_none();
    uint64_t best_id = 0;
    float dt = sp.dt, span = 1.0f - tau;
    for (uint32_t e = first; e < last; e++) {
        uint32_t bits = w.contacts[e].other, j = bits & MINK_CONTACT_SLOT;
        /* Sensors never push. After the first contact, only what no contact deflects (static and
         * kinematic bodies): a dynamic one's path is being decided at the same time, so its
         * planned path would be a guess. Overlaps this leaves are pushed apart next step. */
        if ((bits & MINK_CONTACT_SENSOR) || (it > 0u && (bits & MINK_CONTACT_DYNAMIC))) continue;
        mink_hit h;
        if (it == 0u) {
            h = w.contacts[e].hit;
        } else {
            mink_vec2 vj = w.vel[j], pj = w.pos[j];
            mink_vec2 at = mink_v2(pj.x + vj.x * dt * tau, pj.y + vj.y * dt * tau);
            h = mink_sweep_placed(shape, p, move, w.shapes + w.shape_of[j], at,
                                  mink_v2(vj.x * dt * span, vj.y * dt * span), sp.polygons);
        }
        if ((h.flags & MINK_HIT_CONTACT) &&
            (*best_j == MINK_WORLD_DEAD || mink_hit_before(h, w.ids[j], j, best, best_id, *best_j))) {
            best = h;
            best_id = w.ids[j];
            *best_j = j;
        }
    }
    return best;
}

/// Slot i's step. A sensor, a static or a kinematic body moves by its velocity and nothing else (a
/// sensor reports each body it passes through). A dynamic body, up to `iterations` times: takes its
/// earliest contact among its pairs (first the narrowphase's hits, every body on its planned path;
/// then fresh sweeps of what is left of its move against the static and kinematic ones, which no
/// contact deflects), advances to it and out by its skin, or,
/// already overlapping, is pushed out along the penetration vector by its share (its inverse mass
/// over the pair's); then STOP stops, SLIDE removes the closing normal velocity, BOUNCE reflects it
/// × restitution, the correction split by inverse mass. When no iteration is left it stays at its
/// last contact. Its path within the step is never longer than speed × dt (the broadphase's reach),
/// and a position that would leave the finite floats stays where it was, at rest.
MINK_INLINE void mink_resolve_item(mink_world_view w, mink_step_params sp, uint32_t i) {
    mink_vec2 p0 = w.pos[i], v0 = w.vel[i];
    mink_vec2 p = p0, v = v0;
    uint32_t sid = w.shape_of[i];
    if (sid == MINK_WORLD_DEAD) {
        w.pos_out[i] = p0;
        w.vel_out[i] = v0;
        return;
    }
    mink_body_props pr = w.props[i];
    float dt = sp.dt;
    mink_vec2 move = mink_v2(v.x * dt, v.y * dt);
    uint32_t first = w.adj_start[i], last = w.adj_start[i + 1u];
    /* A moving body in no pair takes its whole move, as the loop below would: most bullets, most
     * steps, without copying its shape (a polygon's size) twice to find that out. */
    if (!mink_is_dynamic(pr) || first == last) {
        if (mink_is_sensor(pr))
            for (uint32_t e = first; e < last; e++) {
                mink_contact c = w.contacts[e];
                if (c.hit.flags & MINK_HIT_CONTACT)
                    mink_emit_event(w, i, c.other & MINK_CONTACT_SLOT, c.hit, 0.0f, 1.0f, MINK_EVENT_SENSOR, 0u);
            }
        p = mink_v2(p.x + move.x, p.y + move.y);
    } else {
        MINK_GLOBAL const mink_shape *shape = w.shapes + sid;
        float budget = mink_length(move), travelled = 0.0f, tau = 0.0f;
        float skin = sp.skin > 0.0f ? sp.skin : mink_body_skin(mink_shape_bounds(shape, p0), budget);
        for (uint32_t it = 0; it < sp.iterations; it++) {
            uint32_t best_j = MINK_WORLD_DEAD;
            float span = 1.0f - tau;
            mink_hit best = mink_earliest_contact(w, sp, first, last, it, shape, p, move, tau, &best_j);
            if (best_j == MINK_WORLD_DEAD) { /* free: the rest of the move */
                p = mink_v2(p.x + move.x, p.y + move.y);
                break;
            }
            mink_emit_event(w, i, best_j, best, tau, span, 0u, it);
            mink_body_props pb = w.props[best_j];
            float inv_j = mink_is_dynamic(pb) ? pb.inv_mass : 0.0f;
            float share = pr.inv_mass / (pr.inv_mass + inv_j);
            mink_vec2 n = best.normal;
            if (best.flags & MINK_HIT_OVERLAP) {
                float push = best.depth * share + skin;
                p = mink_v2(p.x + n.x * push, p.y + n.y * push);
            } else {
                p = mink_v2((p.x + move.x * best.t) + n.x * skin, (p.y + move.y * best.t) + n.y * skin);
                travelled += mink_length(move) * best.t;
                tau = tau + span * best.t;
            }
            if (pr.response == (uint32_t)MINK_RESPONSE_STOP) {
                v = mink_v2(0.0f, 0.0f);
                break;
            }
            mink_vec2 vj = w.vel[best_j];
            float vn = (v.x - vj.x) * n.x + (v.y - vj.y) * n.y;
            if (vn < 0.0f) {
                float e = pr.response == (uint32_t)MINK_RESPONSE_BOUNCE ? pr.restitution : 0.0f;
                float dv = vn * (1.0f + e) * share;
                v = mink_v2(v.x - n.x * dv, v.y - n.y * dv);
            }
            if (it + 1u == sp.iterations) break; /* out of iterations: stay at the contact */
            span = 1.0f - tau;
            move = mink_v2(v.x * dt * span, v.y * dt * span);
            float len = mink_length(move), left = mink_maxf(budget - travelled, 0.0f);
            if (len > left) { /* never farther than the broadphase looked */
                float k = left / len;
                move = mink_v2(move.x * k, move.y * k);
            }
        }
    }
    if (!mink__vec2_is_valid(p) || !mink__vec2_is_valid(v)) {
        p = p0;
        v = mink_v2(0.0f, 0.0f);
    }
    w.pos_out[i] = p;
    w.vel_out[i] = v;
}

#endif /* MINK_CORE_STEP_H */
