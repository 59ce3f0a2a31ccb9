/* core/world.h — what a world holds, as the passes of a step see it: its records, the arrays
 * (MINK_WORLD_ARRAYS, listed once), the view through which the passes read and write them, and
 * shapes placed in the world.
 *
 * Valid C99 and OpenCL C, under the rules of core/geom.h.
 */
#ifndef MINK_CORE_WORLD_H
#define MINK_CORE_WORLD_H

#include "core/body.h"
#include "mink/world.h"

#ifdef MINK_OPENCL
#define MINK_GLOBAL __global
#define MINK_ATOMIC_INC(p) atomic_inc(p)
#define MINK_ATOMIC_ADD(p, v) atomic_add(p, v)
#define MINK_ATOMIC_MAX(p, v) atomic_max(p, v)
#define MINK_ATOMIC_MIN(p, v) atomic_min(p, v)
#define MINK_ATOMIC_OR(p, v) atomic_or(p, v)
#define MINK_LOAD(p) (*(p))
#define MINK_STORE(p, v) (*(p) = (v))
/* OpenCL 1.2 has popcount, not ctz: x & -x keeps the lowest bit set; less one, the bits below it. */
#define MINK_CTZ(x) popcount(((x) & (0u - (x))) - 1u)
#elif defined(__GNUC__)
/* The scalar path runs a pass's items on several threads (host/world_scalar.c): real atomics,
 * relaxed as OpenCL 1.2's are (the pass's end orders everything). */
#define MINK_WORLD_THREADS 1
#define MINK_GLOBAL
#define MINK_ATOMIC_INC(p) __atomic_fetch_add((p), 1u, __ATOMIC_RELAXED)
#define MINK_ATOMIC_ADD(p, v) __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)
#define MINK_CTZ(x) ((uint32_t)__builtin_ctz(x))
#define MINK_ATOMIC_MAX(p, v) mink__atomic_max(p, v)
#define MINK_ATOMIC_MIN(p, v) mink__atomic_min(p, v)
#define MINK_ATOMIC_OR(p, v) __atomic_fetch_or((p), (v), __ATOMIC_RELAXED)
#define MINK_LOAD(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define MINK_STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
static inline void mink__atomic_max(uint32_t *p, uint32_t v) {
    uint32_t old = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (old < v && !__atomic_compare_exchange_n(p, &old, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}
static inline void mink__atomic_min(uint32_t *p, uint32_t v) {
    uint32_t old = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (old > v && !__atomic_compare_exchange_n(p, &old, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}
#else
#define MINK_GLOBAL
#define MINK_ATOMIC_INC(p) ((*(p))++)
#define MINK_ATOMIC_ADD(p, v) mink__fetch_add(p, v)
static inline uint32_t mink__ctz(uint32_t x) {
    uint32_t n = 0u;
    for (; (x & 1u) == 0u; x >>= 1) n++;
    return n;
}
#define MINK_CTZ(x) mink__ctz(x)
#define MINK_ATOMIC_MAX(p, v) mink__store_max(p, v)
#define MINK_ATOMIC_MIN(p, v) mink__store_min(p, v)
#define MINK_ATOMIC_OR(p, v) mink__fetch_or(p, v)
#define MINK_LOAD(p) (*(p))
#define MINK_STORE(p, v) (*(p) = (v))
#endif
/* MINK_LOAD and MINK_STORE: a word that other items of the same pass may write meanwhile (with an
 * atomic, or a plain store of the same value), read or written whole; relaxed atomics where the
 * host runs items on threads, plain accesses on a device (a word's access is whole there). */
#if !defined(MINK_OPENCL) && !defined(__GNUC__)
/* One thread runs a host pass: the atomics are plain read-modify-writes. */
static inline void mink__store_max(uint32_t *p, uint32_t v) { *p = *p > v ? *p : v; }
static inline void mink__store_min(uint32_t *p, uint32_t v) { *p = *p < v ? *p : v; }
static inline uint32_t mink__fetch_or(uint32_t *p, uint32_t v) {
    uint32_t old = *p;
    *p = old | v;
    return old;
}
static inline uint32_t mink__fetch_add(uint32_t *p, uint32_t v) {
    uint32_t old = *p;
    *p = old + v;
    return old;
}
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

/// A listed dynamic body's part in a step's impulse rounds (core/solve.h); a body the first round
/// did not list has none (its entry is stale: MINK_WB_FLAGS says so). 64 bytes.
typedef struct mink_solve_body {
    uint32_t pick;    ///< the dynamic body whose contact it takes first this round; MINK_WORLD_DEAD: none
    uint32_t dirty;   ///< the last round (+ 1) in which it or a body of its pairs changed velocity
    uint32_t fired;   ///< 1 once it took an impulse this step (its velocity is then in motion)
    uint32_t pad;     ///< 0
    mink_hit hit;     ///< the picked contact, as this body sees it
    float first_t;    ///< its first impulse: when (on its starting velocity) and along which normal
    mink_vec2 first_n;
    float walls;      ///< its first static contact on its path now (mink_first_static), kept between rounds
} mink_solve_body;

/// A listed dynamic body's motion in the impulse rounds: what the other bodies of its pairs read
/// of it (at random, a contact at a time), in one 16-byte read rather than three. 16 bytes.
typedef struct mink_solve_motion {
    mink_vec2 vel;  ///< its velocity now
    float kink;     ///< its first impulse's time, 0 until it took one: where its path turned
    uint32_t moved; ///< the round (+ 1) in which its velocity last changed
} mink_solve_motion;

/// Bits of a slot's word in MINK_WB_FLAGS, cleared by the first impulse round.
#define MINK_SOLVE_FIRED 1u  ///< it took an impulse: its velocity is in motion, its first impulse in solve
#define MINK_SOLVE_LISTED 2u ///< the safety rounds listed it in MINK_WB_ACTIVE
#define MINK_SOLVE_CHANGED 4u ///< the last safety round changed its keep

/// Where a dynamic body may stop: its path until it first met a wall (start, kink, mid: a push or an
/// impulse may turn it once before), and how much of that the safety rounds left it (the bits of a
/// float in [0, 1]; 1: all of its path, to where the resolution put it), by round parity. 32 bytes.
typedef struct mink_place {
    mink_vec2 kink;
    mink_vec2 mid;
    uint32_t keep[2];
    float deepest;    ///< its deepest overlap with a dynamic body at the step's start (resolution)
    uint32_t pad;     ///< 0 (32 bytes in all)
} mink_place;

/// Words of MINK_WB_COUNTERS: whether a round fired an impulse, whether a safety round found a
/// conflict (each 0 or 1: only compared with 0), the largest move plus push reach of a dynamic
/// body this step (the bits of a float: mink_bounds_item), the bodies the impulse rounds listed,
/// the bodies the safety rounds listed (MINK_WB_ACTIVE), 1 when a dynamic body is outside the
/// grid's crowd (mink_bounds_item), 1 when one of those left the grid box it marked the crowd from
/// (mink_final_bounds_item), 1 + the largest public slot of a body whose planned move leaves the
/// float range (mink_bounds_item; 0: none).
#define MINK_COUNTERS 8u

/// A grid entry (a body in a cell) with what the pair scan and the narrowphase ask of its body,
/// copied beside it so both read entries in sequence, never a body's arrays at random. 64 bytes.
typedef struct mink_grid_entry {
    mink_aabb box;     ///< the body's box over the step
    mink_vec2 pos;     ///< its position at the step's start
    mink_vec2 move;    ///< its planned move over the step (velocity × dt)
    uint32_t slot;     ///< the body
    uint32_t shape;    ///< its shape id
    uint32_t category; ///< its props' category and mask
    uint32_t mask;
    uint32_t flags;    ///< MINK_CONTACT_SENSOR, MINK_CONTACT_DYNAMIC: what it is (mink_world_wants)
    float near;        ///< a dynamic body's radius for the pair scan's cull (mink_grid_entries_meet)
    uint32_t pad[2];
} mink_grid_entry;



/// Radix sort: 8 bits a pass, up to four passes over 32-bit keys.
#define MINK_RADIX_BINS 256u

/// The broadphase grid. A body whose box covers more than mink_grid.max_cells cells, or more than
/// MINK_GRID_MAX_SIDE a side, is "large": every slot tests itself against it instead of it going
/// into cells (a world-sized body). A step of more than 2^30 entries fails with MINK_ERR_CAPACITY
/// (keys are 32 bits: the bucket × 2 + the crowd bit, then mink_grid.x_bits of where the box starts
/// across its cell, and the large bodies' key above them).
#define MINK_GRID_MAX_SIDE 1000u
/// The fewest cells a body may cover and still go into them. A large body costs a test per slot, a
/// cell an entry (several passes' work): the host allows max(slots / 8, this) cells a body, unless
/// that gives more than 4 entries a slot, and then this (broadphase() in host/world_step.c).
#define MINK_GRID_MAX_CELLS 1000u
/// The fewest buckets the cells hash into: enough that no body's cells share one (mink_grid_bucket).
#define MINK_GRID_MIN_BUCKETS (1u << 21)
/// Words of the step's measure: the keys of the world box's edges, then a histogram of box sizes
/// by power of two (class c: the box's larger side is below 2^(c - 64)).
#define MINK_MEASURE_WORDS (4u + 128u)

/// The grid a step uses, chosen by the host from the measure (the same on both paths). Unbounded:
/// cell (x, y) is every point with floor(coordinate / cell) = (x, y), and cells hash into buckets,
/// so the world's extent costs nothing (one body far away no longer coarsens every cell).
typedef struct mink_grid {
    float inv_cell;   ///< 1 / the cell size (a power of two)
    uint32_t buckets; ///< a power of two, at least MINK_GRID_MIN_BUCKETS; set once entries are counted
    float reach;      ///< how far the grid grows the boxes of bodies that are not dynamic: the largest
                      ///< move plus push reach of a dynamic body (mink_bounds_item, mink_grid_box)
    /// The crowd: a filter (category, mask, contact flags) under which two bodies never meet
    /// (mink_filters_meet is 0 for two of them), such as bullets that ignore bullets or a map of
    /// static tiles. Its entries sort last in each bucket and scan nothing. Flags MINK_GRID_NO_CROWD:
    /// none.
    uint32_t crowd_category, crowd_mask, crowd_flags;
    uint32_t max_cells; ///< the most cells a body goes into; beyond, it is large
    /// Bits of a key below the crowd bit that order a bucket's entries by where their boxes start
    /// across the cell (mink_grid_x_slice): a scan skips the entries that start past its own box's
    /// end, and stops at the first such one of the crowd. Up to 8; 0: none (a query's grid, a step's
    /// whose last scan was sparse, or one of 2^30 buckets, where 32-bit keys leave no room).
    uint32_t x_bits;
    /// 1: the crowd's small bodies have one entry each (mink_grid_single_entries); 0: one a cell.
    uint32_t crowd_single;
} mink_grid;
#define MINK_GRID_NO_CROWD 0xffffffffu

/* The arrays a step's passes see, listed once: X(NAME, field, type), each a pointer to type.
 * The host's mink_world_buf (MINK_WB_<NAME>), the view below, the scalar backend's view and every
 * pass kernel's parameters (kernels/world.cl) are made from this list, in its order.
 *
 * A "slot" in the passes is where a body sits in these arrays. The world renumbers bodies now and
 * then so that bodies near in space sit near in memory (host/world_order.c); the slot a user sees
 * (mink_world_slot) is slot_of[i]. Every tie, every choice of side and every sum over other bodies
 * goes by that public slot (mink_public_before), so no answer depends on where a body sits. */
#define MINK_WORLD_ARRAYS(X)                                                                       \
    X(SHAPES, shapes, const mink_shape)              /* per shape */                               \
    X(SHAPE_OF, shape_of, const uint32_t)            /* per slot: shape id, or MINK_WORLD_DEAD */  \
    X(PROPS, props, const mink_body_props)                                                         \
    X(IDS, ids, const uint64_t)                                                                    \
    X(SLOT_OF, slot_of, const uint32_t)              /* per index: the public slot it holds (ties) */ \
    X(POS, pos, const mink_vec2)                                                                   \
    X(VEL, vel, const mink_vec2)                                                                   \
    X(BOUNDS, bounds, mink_aabb)                     /* per slot, over the step */                 \
    X(RECORDS, records, mink_grid_entry)             /* per slot: its grid entry, with its bounds */ \
    X(NEAR_CROWD, near_crowd, uint32_t)              /* per slot: 1, a crowd body a dynamic non-crowd one may meet */ \
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
    X(ADJ_FILL, adj_fill, uint32_t)                  /* per slot: contacts written, from the list's start */ \
    X(CONTACTS, contacts, mink_contact)              /* per pair end, grouped by body */           \
    X(TWIN, twin, uint32_t)                          /* per pair end: where the pair's other end is */ \
    X(SWEPT, swept, mink_hit)                        /* per pair end: its contact swept again in the impulse rounds */ \
    X(SOLVE, solve, mink_solve_body)                 /* per slot: its part in the impulse rounds */ \
    X(MOTION, motion, mink_solve_motion)             /* per slot: velocity, turn, round moved */ \
    X(ACTIVE, active, uint32_t)                      /* per slot: the bodies the rounds visit */   \
    X(FLAGS, flags, uint32_t)                        /* per slot: MINK_SOLVE_FIRED, _LISTED, _CHANGED */ \
    X(PLACE, place, mink_place)                      /* per slot: its first segment, how much of it */ \
    X(COUNTERS, counters, uint32_t)                  /* MINK_COUNTERS words */                     \
    X(POS_OUT, pos_out, mink_vec2)                                                                 \
    X(VEL_OUT, vel_out, mink_vec2)                                                                 \
    X(EVENTS, events, mink_event)                    /* per event */                               \
    X(EVENT_COUNT, event_count, uint32_t)            /* one word: events appended */ \
    X(QUERIES, queries, const mink_world_query)      /* per query of a world query call */         \
    X(QUERY_FOUND, query_found, uint32_t)            /* per query + 1: hits, then where they go */ \
    X(QUERY_HITS, query_hits, mink_world_hit)        /* per query (the first hit), or per hit */ \
    X(QUERY_MOVES, query_moves, mink_world_move)     /* per move of a check call */

/// A step's parameters.
typedef struct mink_step_params {
    float dt;
    float skin;          ///< > 0: the gap left after a contact; 0: each body's own (mink_body_skin)
    uint32_t iterations; ///< contacts a body may take in one step, >= 1
    uint32_t hulls;      ///< MINK_HULLS_ bits: the world has polygon, capsule shapes (swept as
                         ///< hulls); a kernel that passes a literal is built without the others
} mink_step_params;

/// A world query call's parameters (core/query.h): its filter, made whole (no zero for "all"),
/// the box of the bodies it sees, and what the query pass does.
typedef struct mink_query_params {
    mink_aabb world;    ///< the bodies' boxes' box: the walk through the grid stays inside it
    uint32_t category, mask, sensors;
    uint32_t count;     ///< queries
    uint32_t mode;      ///< MINK_QUERY_FIRST, _COUNT, _WRITE or _MOVE
    uint32_t capacity;  ///< _WRITE: hits past it are not written (nor any of their query's)
    uint32_t shapes;    ///< shape ids below this are known
} mink_query_params;
enum { MINK_QUERY_FIRST = 0, MINK_QUERY_COUNT = 1, MINK_QUERY_WRITE = 2, MINK_QUERY_MOVE = 3 };

/* What a pass takes beyond the arrays: the same struct on the host and, by value, in every pass
 * kernel (its size is in the world's layout check). All fields are 4 bytes: no padding. */
typedef struct mink_step_state {
    mink_step_params params;
    mink_grid grid;
    uint32_t slots, entries, items, pairs, event_capacity;
    uint32_t blocks; /* MINK_PASS_MEASURE: measure blocks */
    uint32_t emit;   /* pairs: 0 count them, 1 write them; safety rounds: 1 stops a conflict outright */
    uint32_t round;  /* impulse and safety rounds: the round (safety: its parity picks the keep) */
    uint32_t listed; /* impulse and safety rounds: the bodies in MINK_WB_ACTIVE */
    uint32_t max_rounds; /* impulse rounds: the most (mink_world_desc.max_rounds) */
    mink_query_params query; /* a world query call's (a step has none) */
} mink_step_state;

/// The arrays a step reads and writes (MINK_WORLD_ARRAYS), and the slots. Each pass uses some.
#define MINK_VIEW_FIELD(NAME, field, type) MINK_GLOBAL type *field;
typedef struct mink_world_view {
    uint32_t count; /* slots, alive or dead */
    MINK_WORLD_ARRAYS(MINK_VIEW_FIELD)
    uint32_t event_capacity;
} mink_world_view;
#undef MINK_VIEW_FIELD

/// Whether body i comes before body j in the public order of slots (the order of every tie).
MINK_INLINE int mink_public_before(mink_world_view w, uint32_t i, uint32_t j) {
    return w.slot_of[i] < w.slot_of[j];
}

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
     * half the scalar resolution's time (docs/benchmarks.md, "Figures behind the code"). The sweeps
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
    } else if (s->type == MINK_SHAPE_CAPSULE) {
        b.shape.capsule = s->geom.capsule;
        b.shape.capsule.center1 = mink_v2(s->geom.capsule.center1.x + p.x, s->geom.capsule.center1.y + p.y);
        b.shape.capsule.center2 = mink_v2(s->geom.capsule.center2.x + p.x, s->geom.capsule.center2.y + p.y);
    }
    return b;
}

/// The shapes swept as hulls, as bits of mink_step_params.hulls: a world's kernels are built for
/// none of them, for polygons, and for both (kernels/world.cl), and each world runs the least build
/// that holds its shapes.
enum { MINK_HULLS_POLYGONS = 1u, MINK_HULLS_CAPSULES = 2u, MINK_HULLS_ALL = 3u };

/// Shape s's MINK_HULLS_ bit (0 for boxes and circles).
MINK_INLINE uint32_t mink_shape_hulls(MINK_GLOBAL const mink_shape *s) {
    return s->type == MINK_SHAPE_POLYGON ? MINK_HULLS_POLYGONS : s->type == MINK_SHAPE_CAPSULE ? MINK_HULLS_CAPSULES : 0u;
}

/// mink_sweep_bodies_linear over dt 1 of shape a at pa moving by ma and shape b at pb moving by
/// mb, with the same calls and bits. Boxes and circles are swept as themselves and shapes are
/// read through pointers: a mink_body or mink_shape has room for a polygon, and copying two of
/// each a pair was the scalar narrowphase's largest cost. `hulls` says which shapes there may be
/// (0: boxes and circles; MINK_HULLS_POLYGONS: polygons too; with MINK_HULLS_CAPSULES, any; a shape
/// beyond them is INVALID): a literal leaves the others' sweeps out of the caller's code, which
/// made PoCL's kernels faster though the sweeps were never called (kernels/world.cl; the figures:
/// docs/benchmarks.md, "Figures behind the code").
MINK_INLINE mink_hit mink_sweep_placed(MINK_GLOBAL const mink_shape *a, mink_vec2 pa, mink_vec2 ma,
                                       MINK_GLOBAL const mink_shape *b, mink_vec2 pb, mink_vec2 mb,
                                       uint32_t hulls) {
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
    if (!hulls) return mink_hit_invalid(); /* a polygon or capsule where none was said to be */
    mink_body ba = mink_shape_place(a, pa, ma), bb = mink_shape_place(b, pb, mb);
    if (!(hulls & MINK_HULLS_CAPSULES)) return mink_sweep_bodies_polygonal(ba, bb, 1.0f); /* a capsule: INVALID */
    return mink_sweep_bodies_linear(ba, bb, 1.0f);
}

/// The box around a shape at p (a polygon's: its bounding circle's; a capsule's: its ends' disks').
MINK_INLINE mink_aabb mink_shape_bounds(MINK_GLOBAL const mink_shape *s, mink_vec2 p) {
    mink_aabb b;
    b.min = b.max = p;
    if (s->type == MINK_SHAPE_AABB) {
        b.min = mink_v2(s->geom.aabb.min.x + p.x, s->geom.aabb.min.y + p.y);
        b.max = mink_v2(s->geom.aabb.max.x + p.x, s->geom.aabb.max.y + p.y);
    } else if (s->type == MINK_SHAPE_CAPSULE) {
        mink_capsule c = s->geom.capsule;
        float r = c.radius;
        b.min = mink_v2(mink_minf(c.center1.x, c.center2.x) + p.x - r, mink_minf(c.center1.y, c.center2.y) + p.y - r);
        b.max = mink_v2(mink_maxf(c.center1.x, c.center2.x) + p.x + r, mink_maxf(c.center1.y, c.center2.y) + p.y + r);
    } else {
        mink_vec2 c = s->type == MINK_SHAPE_CIRCLE ? s->geom.circle.center : s->geom.polygon.position;
        float r = s->type == MINK_SHAPE_CIRCLE ? s->geom.circle.radius : s->geom.polygon.radius;
        c = mink_v2(c.x + p.x, c.y + p.y);
        b.min = mink_v2(c.x - r, c.y - r);
        b.max = mink_v2(c.x + r, c.y + r);
    }
    return b;
}

/// A disk holding shape s placed at p, from the placed shape (what the sweeps read, so only world
/// coordinates round): a circle's or polygon's own bounding circle, a capsule's around its placed
/// segment's middle, a box's around its placed centre.
MINK_INLINE mink_circle mink_shape_disk(MINK_GLOBAL const mink_shape *s, mink_vec2 p) {
    mink_circle d;
    if (s->type == MINK_SHAPE_CIRCLE || s->type == MINK_SHAPE_POLYGON) {
        mink_vec2 c = s->type == MINK_SHAPE_CIRCLE ? s->geom.circle.center : s->geom.polygon.position;
        d.center = mink_v2(c.x + p.x, c.y + p.y);
        d.radius = s->type == MINK_SHAPE_CIRCLE ? s->geom.circle.radius : s->geom.polygon.radius;
    } else if (s->type == MINK_SHAPE_CAPSULE) {
        mink_capsule c = s->geom.capsule;
        mink_vec2 c1 = mink_v2(c.center1.x + p.x, c.center1.y + p.y), c2 = mink_v2(c.center2.x + p.x, c.center2.y + p.y);
        d.center = mink_v2((c1.x + c2.x) * 0.5f, (c1.y + c2.y) * 0.5f);
        d.radius = mink_length(mink_v2(c2.x - c1.x, c2.y - c1.y)) * 0.5f + c.radius;
    } else {
        mink_aabb b = mink_shape_aabb_at(s, p);
        d.center = mink_v2((b.min.x + b.max.x) * 0.5f, (b.min.y + b.max.y) * 0.5f);
        d.radius = mink_length(mink_v2(b.max.x - b.min.x, b.max.y - b.min.y)) * 0.5f;
    }
    return d;
}

/// mink_sweep_placed when the shapes' disks may meet (mink_disks_may_meet), else no hit: the same
/// contacts, for a fraction of the work where most pairs never meet.
MINK_INLINE mink_hit mink_sweep_placed_near(MINK_GLOBAL const mink_shape *a, mink_vec2 pa, mink_vec2 ma,
                                            MINK_GLOBAL const mink_shape *b, mink_vec2 pb, mink_vec2 mb,
                                            uint32_t hulls) {
    if (!mink_disks_may_meet(mink_shape_disk(a, pa), ma, mink_shape_disk(b, pb), mb)) return mink_hit_none();
    return mink_sweep_placed(a, pa, ma, b, pb, mb, hulls);
}

/// The gap a body keeps from what it touched: a contact leaves it this far out along the normal, so
/// rounding never leaves it overlapping, and a box sliding on a floor of tiles never meets a
/// seam. 2^-12 of its size plus 2^-19 of its coordinates and its move (a few ulps of either), each
/// scaled before the sum: the same bits as scaling the sum, which overflowed for a body near the
/// float limit moving as far again (its skin infinite, its box for the safety rounds gone).
MINK_INLINE float mink_body_skin(mink_aabb box, float move_length) {
    float size = mink_maxf(box.max.x - box.min.x, box.max.y - box.min.y);
    float far = mink_maxf(mink_maxf(mink_absf(box.min.x), mink_absf(box.max.x)),
                          mink_maxf(mink_absf(box.min.y), mink_absf(box.max.y)));
    return size * 0.000244140625f + (far * 0.0000019073486328125f + move_length * 0.0000019073486328125f);
}

/// How far an overlap may push a body in one step: a quarter of its shape's smaller side, so pushes
/// stay small beside the body and inside its broadphase box (which grows by this much).
MINK_INLINE float mink_box_push_reach(mink_aabb b) { return mink_minf(b.max.x - b.min.x, b.max.y - b.min.y) * 0.25f; }

/// mink_box_push_reach of shape s's box.
MINK_INLINE float mink_push_reach(MINK_GLOBAL const mink_shape *s) {
    return mink_box_push_reach(mink_shape_bounds(s, mink_v2(0.0f, 0.0f)));
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

#endif /* MINK_CORE_WORLD_H */
