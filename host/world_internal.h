/* host/world_internal.h — what the world's files share: its arrays and the two step backends. */
#ifndef MINK_WORLD_INTERNAL_H
#define MINK_WORLD_INTERNAL_H

#include "internal.h"
#include "core/step.h" /* the step's passes, item by item */
#include "mink/world.h"

_Static_assert(sizeof(mink_shape) == 152, "mink_shape must be 152 bytes");
_Static_assert(sizeof(mink_body_props) == 20, "mink_body_props must be 20 bytes");
_Static_assert(sizeof(mink_event) == 64, "mink_event must be 64 bytes");
_Static_assert(sizeof(mink_world_pair) == 8, "mink_world_pair must be 8 bytes");
_Static_assert(sizeof(mink_grid_entry) == 64, "mink_grid_entry must be 64 bytes");
_Static_assert(sizeof(mink_contact) == 36, "mink_contact must be 36 bytes");
_Static_assert(sizeof(mink_step_state) == 136, "mink_step_state must be 136 bytes, no padding");
_Static_assert(sizeof(mink_world_query) == 24, "mink_world_query must be 24 bytes");
_Static_assert(sizeof(mink_world_hit) == 40, "mink_world_hit must be 40 bytes");
_Static_assert(sizeof(mink_world_move) == 56, "mink_world_move must be 56 bytes");
_Static_assert(sizeof(mink_solve_body) == 64, "mink_solve_body must be 64 bytes");
_Static_assert(sizeof(mink_solve_motion) == 16, "mink_solve_motion must be 16 bytes");
_Static_assert(sizeof(mink_place) == 32, "mink_place must be 32 bytes");

/* Every array a world holds: those the passes see (MINK_WORLD_ARRAYS, core/step.h), then the
 * helpers' scratch. Per slot unless said. On the scalar path each is host memory (the bodies'
 * fixed fields are the host copies below); on OpenCL each is a device buffer. SHAPE_OF .. VEL are
 * the fields add and set write, in this order. */
#define MINK_WB_ENUM(NAME, field, type) MINK_WB_##NAME,
typedef enum mink_world_buf {
    MINK_WORLD_ARRAYS(MINK_WB_ENUM)
    MINK_WB_KEYS2,  /* the radix sort's other half of KEYS and ORDER */
    MINK_WB_ORDER2,
    MINK_WB_PAIRS2, /* the step's pairs, kept here while the safety rounds find theirs */
    MINK_WB_RADIX,  /* per (digit, block) */
    MINK_WB_SUMS,   /* per scan block + 1 */
    MINK_WB_STAGE,  /* OpenCL only: handles and values on their way in or out */
    MINK_WB_COUNT
} mink_world_buf;
#undef MINK_WB_ENUM

/* The stages a step's time is shared into (mink_world_stats). */
enum { MINK_STAGE_START, MINK_STAGE_BOUNDS, MINK_STAGE_BROADPHASE, MINK_STAGE_NARROWPHASE, MINK_STAGE_RESOLUTION,
       MINK_STAGE_COUNT };

typedef struct mink_world_array {
    void *host;
    cl_mem mem;
    size_t bytes;
} mink_world_array;

struct mink_world {
    mink_context *ctx;
    int opencl;
    size_t max_pairs;
    mink_step_params params; /* dt set per step */
    uint32_t rounds;         /* impulse rounds a step may take (mink_world_desc.max_rounds) */

    size_t slots, capacity, alive_count;
    uint8_t *alive;          /* per slot */
    uint32_t *free_slots;    /* a stack of removed slots, reused last-in first-out */
    size_t free_count;
    /* Handles: a slot and its generation (world.h). A removal moves the slot's generation on, so
     * a removed body's handle never names the next body in its slot; a slot whose generation
     * would wrap is never reused. The last step's events and pairs name bodies as they were then:
     * a slot removed since has its generation of then in gen_then, stamped with the step's epoch. */
    uint16_t *gen, *gen_then;
    uint32_t *gen_epoch;
    uint32_t epoch;          /* steps taken, mod 2^32 */

    /* Host copies of what only the API changes: always current, on either path. */
    mink_shape *shapes;
    size_t shape_count, shape_capacity;
    uint32_t *shape_of;
    mink_body_props *props;
    uint64_t *ids;
    /* Where bodies sit in the arrays: the world renumbers them by place now and then (world_order.c),
     * behind the public slots. Every per-slot array above and on the device (MINK_WORLD_ARRAYS) is
     * by index; slot_of[index] is the public slot there, index_of[slot] where a slot sits. A slot
     * keeps its index until the next renumbering; a new slot gets the next index. */
    uint32_t *slot_of, *index_of;
    int renumbered;          /* 0 while every index is its slot */
    uint32_t order_age;      /* steps since the last renumbering */
    mink_grid order_grid;    /* the last step's grid, for the next renumbering; buckets 0: none yet */
    uint32_t order_listed;   /* the bodies the last step's impulse rounds listed */
    int order_always;        /* tests: renumbered before every step but the first */
    int rounds_in_one;       /* tests: impulse and safety rounds in one item 1 always, -1 never; 0 by size */
    uint32_t items_each;     /* tests: the scalar path's passes split over threads from this many items a
                                thread (0: MINK_WORLD_ITEMS_EACH, world_scalar.c) */
    int near_crowd_all;      /* tests: every crowd body joins the safety rounds' broadphase */

    mink_world_array buf[MINK_WB_COUNT];
    /* The grid's crowd (mink_grid): of the filters given to bodies that never meet themselves,
       the one given most often, by a majority vote over every add and set (Boyer and Moore's: a
       candidate and a count, no table). Any such filter gives the same pairs; the vote makes it
       likely the largest. */
    uint32_t crowd[3];       /* category, mask, contact flags; flags MINK_GRID_NO_CROWD: none yet */
    size_t crowd_votes;
    int crowd_single;        /* mink_grid.crowd_single (crowd_single() in world_step.c); -1: bodies changed since */
    /* Whether each of a step's two broadphases (the step's, the safety rounds') sorts its buckets
       along x (mink_grid.x_bits): when its last scan found a pair for every two entries or more.
       Sparse scans (a crowd, bodies far apart) prune little and would pay a radix pass more; the
       pairs, and so the bits, are the same either way. */
    int x_sorted[2];
    int dirty;               /* OpenCL: a failed update may have left the device's copies of the
                                host tables (shape_of, props, ids) part written; the next step
                                sends them whole first */
    size_t pairs, events;    /* from the last step */
    /* The grid of the last query call, kept in KEYS, ORDER, BOUNDS and CELLS until a step, add, set
     * or remove: a call with the same filter uses it again (world_query.c). */
    struct {
        int valid;
        uint32_t category, mask, sensors; /* the filter it was built for */
        mink_grid grid;
        uint32_t entries;
        mink_aabb world;
    } query_grid;
    mink_world_stats stats;
    double stage_ms[MINK_STAGE_COUNT];      /* scalar: when each stage ended */
    cl_event stage_marks[MINK_STAGE_COUNT]; /* OpenCL: a marker after each stage */
};

/* ---- slots and handles (world.c, world_bodies.c) ------------------------------------------------- */

static inline uint32_t mink__world_handle(const mink_world *w, uint32_t slot) {
    return slot | (uint32_t)w->gen[slot] << MINK_WORLD_SLOT_BITS;
}

/* A slot's handle as the last step saw it (its events and pairs): a removal since then has moved
 * the generation on. */
static inline uint32_t mink__world_handle_then(const mink_world *w, uint32_t slot) {
    if (slot >= w->slots) return slot;
    uint32_t g = w->gen_epoch[slot] == w->epoch ? w->gen_then[slot] : w->gen[slot];
    return slot | g << MINK_WORLD_SLOT_BITS;
}

/* The public slot of the body at index i of the arrays (an index past the slots: itself). */
static inline uint32_t mink__world_slot_at(const mink_world *w, uint32_t i) {
    return i < w->slots ? w->slot_of[i] : i;
}

/* Two arrays trade places (a step's outputs become the body arrays; a sort's passes alternate). */
static inline void mink__world_swap(mink_world *w, mink_world_buf a, mink_world_buf b) {
    mink_world_array t = w->buf[a];
    w->buf[a] = w->buf[b];
    w->buf[b] = t;
}

/* Every handle alive and named once; their slots in a new array (*out, to free), in order. */
mink_status mink__world_take_slots(mink_world *w, const char *fn, const uint32_t *handles, size_t count,
                                   uint32_t **out);
/* Room for `need` slots in the host copies and the body arrays. */
mink_status mink__world_reserve_slots(mink_world *w, size_t need);
/* realloc of n elements of size, NULL when n * size overflows. */
void *mink__grow(void *p, size_t n, size_t size);

/* The grid for a step's measure and the world's crowd (world.c); 0 when no body has a finite box.
 * Then, once the entries are counted, its buckets and the radix passes its keys need (*passes);
 * 0 when the entries are more than 32-bit keys hold. */
int mink__world_grid(const mink_world *w, const uint32_t *measure, mink_grid *grid);
int mink__world_grid_buckets(mink_grid *grid, uint32_t entries, int x_sorted, uint32_t *passes);

/* Field sizes of MINK_WB_SHAPE_OF .. MINK_WB_VEL, in bytes. */
size_t mink__world_field_size(mink_world_buf field);

/* Frees an array (it is made again when next reserved). */
void mink__world_release(mink_world *w, mink_world_buf b);
/* Makes an array at least `bytes` long, keeping its first `keep` bytes. */
mink_status mink__world_reserve(mink_world *w, mink_world_buf b, size_t bytes, size_t keep);

/* ---- a step: its sequence once (world_step.c), its passes on a backend -------------------------- */

/* The passes of core/step.h, each over its items. */
typedef enum mink_world_pass {
    MINK_PASS_BOUNDS,      /* per slot: its box over the step and its grid record */
    MINK_PASS_MEASURE,     /* the world's box and its boxes' sizes, into MINK_WB_MEASURE */
    MINK_PASS_GRID_COUNT,  /* per slot: its grid entries; cells[slots + 1] = 1 when one is large */
    MINK_PASS_GRID_EMIT,   /* per slot: its entries' keys and slots */
    MINK_PASS_GRID_GATHER, /* per sorted entry: its slot's record */
    MINK_PASS_PAIRS_COUNT, /* per item (sorted entries, then slots when one is large): pairs found */
    MINK_PASS_PAIRS_WRITE, /* the same items: their pairs, where the scan put them */
    MINK_PASS_DEGREE,      /* per pair: both bodies' list sizes */
    MINK_PASS_NARROW,      /* per pair: the sweep, into both bodies' lists */
    MINK_PASS_RESWEEP,     /* per listed body, an impulse round after the first: its contacts swept again */
    MINK_PASS_PICK,        /* per slot (later rounds: listed body), an impulse round: the contact it would take */
    MINK_PASS_FIRE,        /* per listed body, an impulse round: the impulse of a pair that picked each other */
    MINK_PASS_RESOLVE,     /* per slot: its moves, its new position and velocity, its events */
    MINK_PASS_FINAL_BOUNDS, /* per slot: a dynamic body's box over where it may end, for the safety pairs */
    MINK_PASS_SAFETY,      /* per pair, a safety round: moves that would meet held back */
    MINK_PASS_PLACE,       /* per body a safety round listed: where the safety rounds left it */
    MINK_PASS_IMPULSE_ROUNDS, /* one item: the impulse rounds from round 0's fire on, a short list's */
    MINK_PASS_SAFETY_ROUNDS, /* one item: the safety rounds from round 1 on and the last place, few pairs' */
    MINK_PASS_ORDER_KEY,   /* per slot, before a step now and then: its place in a new order (world_order.c) */
    MINK_PASS_ORDER_GATHER, /* per slot of the new order: its body's position and velocity */
    MINK_PASS_QUERY_BOUNDS, /* per slot, a query call: its box if the call sees it */
    MINK_PASS_QUERY,       /* per query: its first hit, its hits counted, or written (core/query.h) */
    MINK_PASS_QUERY_MOVE,  /* per move of a check call: where it would end, what it would meet */
} mink_world_pass;

/* A backend runs passes and whole-array operations; world_step.c decides what and when. */
typedef struct mink_world_backend {
    mink_status (*pass)(mink_world *w, mink_world_pass pass, const mink_step_state *s);
    mink_status (*scan)(mink_world *w, mink_world_buf a, uint32_t n); /* exclusive; the total to a[n] */
    mink_status (*sort)(mink_world *w, uint32_t n, uint32_t passes);  /* KEYS and ORDER by key, stable */
    mink_status (*read)(mink_world *w, mink_world_buf b, size_t index, size_t count, uint32_t *out);
    mink_status (*zero)(mink_world *w, mink_world_buf b, size_t offset, size_t bytes);
    mink_status (*write)(mink_world *w, mink_world_buf b, size_t bytes, const void *from); /* from the start */
    mink_status (*mark)(mink_world *w, int stage); /* a stage's work is all asked for */
    void (*end)(mink_world *w, mink_status status); /* the stages' shares; after a failure, a wait */
} mink_world_backend;

extern const mink_world_backend mink__world_scalar, mink__world_opencl;

/* One step of the world on its backend. */
mink_status mink__world_step_run(mink_world *w);
/* The grid of a step (or a query call) over the boxes in MINK_WB_BOUNDS (measured): entries
 * counted, emitted and sorted into KEYS and ORDER (world_step.c). reach grows the boxes of bodies
 * that are not dynamic (mink_grid.reach). scanned 1: a step's grid, which the pair scan reads (the
 * world's crowd last in each bucket; with x_sorted, each bucket's entries by where they start
 * along x); 0: a query's (keys by bucket alone, no crowd). *large (may be NULL) receives the large
 * bodies. s->entries is 0, and *large too, when no box is finite. */
mink_status mink__world_grid_build(mink_world *w, const mink_world_backend *be, mink_step_state *s, float reach,
                                   int scanned, int x_sorted, size_t *large);
/* Every few steps, before the step's passes: the bodies renumbered by place (world_order.c). */
mink_status mink__world_renumber(mink_world *w, const mink_world_backend *be);
/* After a failed update, the host's tables whole to the device (world.c). */
mink_status mink__world_resync(mink_world *w);
/* Writes count values (field size each) to the slots named by handles. */
mink_status mink__world_cl_write(mink_world *w, mink_world_buf field, const uint32_t *handles, size_t count,
                                 const void *values);
/* Reads count values of a field from the slots named by handles (NULL: 0 .. count-1). */
mink_status mink__world_cl_read(mink_world *w, mink_world_buf field, const uint32_t *handles, size_t count,
                                void *values);
/* Reads the first count entries of an array. */
mink_status mink__world_cl_read_array(mink_world *w, mink_world_buf b, size_t bytes, void *out);
mink_status mink__world_cl_reserve(mink_world *w, mink_world_buf b, size_t bytes, size_t keep);
/* Builds part `part` of the program (core/parts.h) if it is not yet built, and checks that each of
 * its pass kernels takes the arrays of MINK_WORLD_ARRAYS and the state (MINK_ERR_BUILD with a
 * message naming the kernel if not) and, for MINK_PART_WORLD, the world's records against the
 * device's. A failure releases the part, so the next call builds and checks it again. */
mink_status mink__world_cl_build(mink_context *ctx, int part);
/* Forgets which buffers the pass kernels have bound (a world buffer was made or freed). */
void mink__world_cl_forget(mink_context *ctx);

#endif /* MINK_WORLD_INTERNAL_H */
