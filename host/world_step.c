/* host/world_step.c — a world step, once: the sequence of core/step.h's passes, the sizing of
 * every array between them, the capacity check and the events' retry. A backend (world_scalar.c,
 * world_opencl.c) runs each pass over its items and the few whole-array operations between them;
 * it decides nothing. */
#include <stdlib.h>

#include "world_internal.h"

#define STEP_TRY(expr)                                                                             \
    do {                                                                                           \
        status = (expr);                                                                           \
        if (status != MINK_OK) goto fail;                                                          \
    } while (0)

/* Arrays of a size known before the step: per slot, and the body arrays' next copies at full
 * capacity (they become the body arrays when the step swaps them in). */
static mink_status reserve_fixed(mink_world *w, size_t n) {
    const struct {
        mink_world_buf b;
        size_t bytes;
    } fixed[] = {
        {MINK_WB_BOUNDS, n * sizeof(mink_aabb)},
        {MINK_WB_RECORDS, n * sizeof(mink_grid_entry)},
        {MINK_WB_NEAR_CROWD, n * 4},
        {MINK_WB_MEASURE, MINK_MEASURE_WORDS * 4},
        {MINK_WB_CELLS, (n + 2) * 4}, /* entries per slot, the total, how many are large */
        {MINK_WB_ADJ_START, (n + 1) * 4},
        {MINK_WB_ADJ_FILL, n * 4},
        {MINK_WB_POS_OUT, w->capacity * sizeof(mink_vec2)},
        {MINK_WB_VEL_OUT, w->capacity * sizeof(mink_vec2)},
        {MINK_WB_EVENTS, 1024 * sizeof(mink_event)},
        {MINK_WB_SOLVE, n * sizeof(mink_solve_body)},
        {MINK_WB_MOTION, n * sizeof(mink_solve_motion)},
        {MINK_WB_ACTIVE, n * 4},
        {MINK_WB_FLAGS, n * 4},
        {MINK_WB_PLACE, n * sizeof(mink_place)},
        {MINK_WB_COUNTERS, MINK_COUNTERS * 4},
        {MINK_WB_SHAPES, sizeof(mink_shape)}, /* a world without shapes still binds one */
        /* The query calls' arrays, made small: an array not made is bound again at every launch. */
        {MINK_WB_QUERIES, sizeof(mink_world_query)},
        {MINK_WB_QUERY_FOUND, 4},
        {MINK_WB_QUERY_HITS, sizeof(mink_world_hit)},
        {MINK_WB_QUERY_MOVES, sizeof(mink_world_move)},
    };
    mink_status status = MINK_OK;
    for (size_t k = 0; k < sizeof fixed / sizeof fixed[0] && status == MINK_OK; k++)
        status = mink__world_reserve(w, fixed[k].b, fixed[k].bytes, 0);
    return status;
}

/* Arrays per pair-scan item, once the entries are counted: `items` (entries, and every slot when
 * a body is large). */
static mink_status reserve_items(mink_world *w, size_t entries, size_t items) {
    mink_status status = mink__world_reserve(w, MINK_WB_KEPT, entries * 4, 0);
    if (status == MINK_OK) status = mink__world_reserve(w, MINK_WB_ENTRIES, entries * sizeof(mink_grid_entry), 0);
    if (status == MINK_OK) status = mink__world_reserve(w, MINK_WB_FOUND, (items + 1) * 4, 0);
    return status;
}

/* Arrays per pair, once the pairs are counted. */
static mink_status reserve_pairs(mink_world *w, size_t pairs) {
    mink_status status = mink__world_reserve(w, MINK_WB_PAIRS, pairs * sizeof(mink_world_pair), 0);
    if (status == MINK_OK) status = mink__world_reserve(w, MINK_WB_PAIR_ENTRIES, pairs * sizeof(mink_world_pair), 0);
    if (status == MINK_OK) status = mink__world_reserve(w, MINK_WB_CONTACTS, pairs * 2 * sizeof(mink_contact), 0);
    if (status == MINK_OK) status = mink__world_reserve(w, MINK_WB_TWIN, pairs * 2 * 4, 0);
    return status;
}

/* The pairs a step may hold: the desc's, or 64 a body and at least 2^20. */
static size_t max_pairs(const mink_world *w, uint32_t slots) {
    if (w->max_pairs) return w->max_pairs;
    size_t most = (size_t)slots * 64 > ((size_t)1 << 20) ? (size_t)slots * 64 : (size_t)1 << 20;
    return most < (size_t)UINT32_MAX / 2 ? most : (size_t)UINT32_MAX / 2;
}

/* The pairs the count pass found, in 64 bits: the scan saturates at MINK_SCAN_FULL, so when it
 * says that much the count pass runs again and its items are summed here. Only a failing step
 * gets here, so the read costs nothing that matters. */
static mink_status count_pairs(mink_world *w, const mink_world_backend *be, const mink_step_state *s,
                               uint32_t scanned, uint64_t *total) {
    *total = scanned;
    if (scanned != MINK_SCAN_FULL) return MINK_OK;
    uint32_t *found = malloc(((size_t)s->items + 1) * 4);
    if (found == NULL) return mink__fail(w->ctx, MINK_ERR_OUT_OF_MEMORY, "mink_world_step: out of memory counting pairs");
    mink_status status = be->pass(w, MINK_PASS_PAIRS_COUNT, s);
    if (status == MINK_OK) status = be->read(w, MINK_WB_FOUND, 0, s->items, found);
    *total = 0;
    for (uint32_t r = 0; r < s->items && status == MINK_OK; r++) *total += found[r];
    free(found);
    return status;
}

mink_status mink__world_grid_build(mink_world *w, const mink_world_backend *be, mink_step_state *s, float reach,
                                   int scanned, int x_sorted, size_t *large) {
    mink_status status = MINK_OK;
    uint32_t measure[MINK_MEASURE_WORDS], passes = 0, counted[2] = {0, 0};
    const mink_world_buf words[] = {MINK_WB_KEYS, MINK_WB_ORDER, MINK_WB_KEYS2, MINK_WB_ORDER2};
    s->entries = 0;
    if (large) *large = 0;
    STEP_TRY(be->read(w, MINK_WB_MEASURE, 0, MINK_MEASURE_WORDS, measure));
    if (!mink__world_grid(w, measure, &s->grid)) return MINK_OK; /* no finite box */
    s->grid.reach = reach;
    if (!scanned) s->grid.crowd_flags = MINK_GRID_NO_CROWD;
    s->grid.crowd_single = (uint32_t)(scanned && w->crowd_single > 0);
    /* Bodies of up to slots / 8 cells go into them (arena walls at 10^6 bodies: each would cost
     * every slot a test), unless that makes more than 4 entries a slot: then up to 1000. */
    uint32_t generous = s->slots / 8;
    s->grid.max_cells = generous > MINK_GRID_MAX_CELLS ? generous : MINK_GRID_MAX_CELLS;
    for (;;) {
        STEP_TRY(be->zero(w, MINK_WB_CELLS, ((size_t)s->slots + 1) * 4, 4));
        STEP_TRY(be->pass(w, MINK_PASS_GRID_COUNT, s));
        STEP_TRY(be->scan(w, MINK_WB_CELLS, s->slots));
        STEP_TRY(be->read(w, MINK_WB_CELLS, s->slots, 2, counted)); /* the entries, the large slots */
        if (s->grid.max_cells == MINK_GRID_MAX_CELLS || counted[0] / 4 <= s->slots) break;
        s->grid.max_cells = MINK_GRID_MAX_CELLS;
    }
    if (counted[0] == MINK_SCAN_FULL || !mink__world_grid_buckets(&s->grid, counted[0], scanned && x_sorted, &passes)) {
        status = mink__fail(w->ctx, MINK_ERR_CAPACITY,
                            "mink_world: the grid needs more than %u entries (bodies in cells)", 1u << 30);
        goto fail;
    }
    s->entries = counted[0];
    if (large) *large = counted[1];
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
        STEP_TRY(mink__world_reserve(w, words[k], (size_t)s->entries * 4, 0));
    if (s->entries > 0) STEP_TRY(be->pass(w, MINK_PASS_GRID_EMIT, s));
    STEP_TRY(be->sort(w, s->entries, passes));
fail:
    return status;
}

/* The broadphase (`which`: 0 the step's, 1 the safety rounds'): bodies into grid cells, entries
 * sorted by cell, pairs within each cell (and every body against the large ones, sorted last).
 * s->pairs receives the count, which max_pairs bounds; *large (when not NULL) the large bodies. */
static mink_status broadphase(mink_world *w, const mink_world_backend *be, mink_step_state *s, int which, float reach,
                              size_t *large) {
    mink_status status = MINK_OK;
    uint32_t pairs = 0;
    size_t larger = 0;
    s->pairs = 0;
    s->items = 0;
    STEP_TRY(mink__world_grid_build(w, be, s, reach, 1, w->x_sorted[which], &larger));
    if (large) *large = larger;
    if (s->entries == 0 && larger == 0) return reserve_pairs(w, 0); /* no finite box */
    s->items = s->entries + (larger ? s->slots : 0);
    STEP_TRY(reserve_items(w, s->entries, s->items));
    STEP_TRY(reserve_pairs(w, 1)); /* the count pass binds them */
    STEP_TRY(be->pass(w, MINK_PASS_GRID_GATHER, s));
    STEP_TRY(be->pass(w, MINK_PASS_PAIRS_COUNT, s));
    STEP_TRY(be->scan(w, MINK_WB_FOUND, s->items));
    STEP_TRY(be->read(w, MINK_WB_FOUND, s->items, 1, &pairs));
    w->stats.pairs_needed = pairs;
    size_t most = max_pairs(w, s->slots);
    if (pairs > most) {
        uint64_t total = 0;
        STEP_TRY(count_pairs(w, be, s, pairs, &total));
        w->stats.pairs_needed = total > SIZE_MAX ? SIZE_MAX : (size_t)total;
        status = mink__fail(w->ctx, MINK_ERR_CAPACITY, "mink_world_step: the broadphase found %llu pairs; max_pairs is %zu",
                            (unsigned long long)total, most);
        goto fail;
    }
    STEP_TRY(reserve_pairs(w, pairs));
    s->pairs = pairs;
    w->x_sorted[which] = (uint64_t)pairs * 2u >= s->entries; /* for the next step's */
    STEP_TRY(be->pass(w, MINK_PASS_PAIRS_WRITE, s));
fail:
    return status;
}

/* Whether rounds over `items` run in one item (mink_impulse_rounds_item over up to 2048 listed
 * bodies, mink_safety_rounds_item over up to 8192 safety pairs) on a CPU device and on the scalar
 * path (the same work either way there); never on a GPU, where one work-item is slow and a launch
 * cheap. */
static int rounds_in_one(const mink_world *w, uint32_t items, uint32_t most) {
    if (w->opencl && !w->ctx->cpu_device) return 0; /* a GPU's build leaves the kernel's body out */
    if (w->rounds_in_one != 0) return w->rounds_in_one > 0;
    return items <= most;
}

/* The impulse rounds (core/solve.h): until a round fires none, or max_rounds. The first pick
 * runs over every slot and lists the bodies with a dynamic body in their pairs; all else runs
 * over that list (most bullets have none), pass by pass, or all in one item when the list is
 * short (mink_impulse_rounds_item: the same loop). */
static mink_status impulses(mink_world *w, const mink_world_backend *be, mink_step_state *s) {
    mink_status status = MINK_OK;
    uint32_t fired = 1;
    STEP_TRY(be->zero(w, MINK_WB_COUNTERS, 3 * 4, 4));
    s->round = 0;
    STEP_TRY(be->pass(w, MINK_PASS_PICK, s)); /* and clears the round's flag */
    STEP_TRY(be->read(w, MINK_WB_COUNTERS, 3, 1, &s->listed));
    if (s->listed == 0) return status;
    /* Contacts swept again, kept per contact: only a step with dynamic pairs needs them. */
    STEP_TRY(mink__world_reserve(w, MINK_WB_SWEPT, (size_t)s->pairs * 2 * sizeof(mink_hit), 0));
    s->max_rounds = w->rounds;
    if (rounds_in_one(w, s->listed, 2048u)) return be->pass(w, MINK_PASS_IMPULSE_ROUNDS, s);
    for (;;) {
        STEP_TRY(be->pass(w, MINK_PASS_FIRE, s));
        STEP_TRY(be->read(w, MINK_WB_COUNTERS, 0, 1, &fired));
        if (fired == 0 || ++s->round >= w->rounds) break;
        STEP_TRY(be->pass(w, MINK_PASS_RESWEEP, s)); /* the changed bodies' contacts */
        STEP_TRY(be->pass(w, MINK_PASS_PICK, s));    /* and clears the round's flag */
    }
fail:
    return status;
}

/* Every body marked near (mink_crowd_mark), so that each dynamic body joins the safety rounds'
 * broadphase, as before crowd bodies could be left out of it: when one outside the crowd left its
 * grid box, and always under the test hook w->near_crowd_all. */
static mink_status mark_all_near(mink_world *w, const mink_world_backend *be, uint32_t slots) {
    uint32_t *ones = malloc((size_t)slots * 4);
    if (ones == NULL) return mink__fail(w->ctx, MINK_ERR_OUT_OF_MEMORY, "mink_world_step: out of memory");
    for (uint32_t i = 0; i < slots; i++) ones[i] = 1u;
    mink_status status = be->write(w, MINK_WB_NEAR_CROWD, (size_t)slots * 4, ones);
    free(ones);
    return status;
}

/* The safety rounds (core/solve.h): moves that would meet are held back, by what comes before the
 * contact for the first few rounds, then outright, until no pair meets. Held back outright, a
 * body stays where it started, and two such never meet, so each round that finds a conflict
 * holds one more body still: the loop ends. */
static mink_status safety(mink_world *w, const mink_world_backend *be, const mink_step_state *step, uint32_t mixed) {
    mink_status status = MINK_OK;
    mink_step_state f = *step, *s = &f; /* its own grid and pairs */
    uint32_t conflicts = 1, counters[MINK_COUNTERS];
    size_t needed = w->stats.pairs_needed;
    /* Their own pairs: dynamic bodies whose boxes over where they may end overlap, found by the
     * broadphase into the second pair array; the step's pairs wait in the first. */
    mink__world_swap(w, MINK_WB_PAIRS, MINK_WB_PAIRS2);
    if (!mixed) goto fail; /* not a failure: every dynamic body is of the crowd, no pair to find */
    STEP_TRY(be->zero(w, MINK_WB_COUNTERS, 6 * 4, 4));
    STEP_TRY(be->pass(w, MINK_PASS_FINAL_BOUNDS, s));
    /* A body outside the crowd left the grid box it marked the crowd from (or marked nothing): the
     * crowd's bodies left out may meet it after all, so every one joins. The pass may run again: a
     * body it left out still holds its step record, and no other body's box depends on its record. */
    STEP_TRY(be->read(w, MINK_WB_COUNTERS, 6, 1, counters));
    if (counters[0] != 0u) {
        STEP_TRY(mark_all_near(w, be, s->slots));
        STEP_TRY(be->pass(w, MINK_PASS_FINAL_BOUNDS, s));
    }
    STEP_TRY(be->pass(w, MINK_PASS_MEASURE, s));
    STEP_TRY(broadphase(w, be, s, 1, 0.0f, NULL)); /* bodies that are not dynamic have no box here */
    /* The bodies in a conflict are listed as they are found: the place pass runs over them (before
     * the first round every keep is 1, and the place pass would change nothing). */
    STEP_TRY(be->zero(w, MINK_WB_COUNTERS, 1 * 4, 4));
    STEP_TRY(be->zero(w, MINK_WB_COUNTERS, 4 * 4, 4));
    s->listed = 0;
    for (s->round = 0; conflicts > 0; s->round++) {
        s->emit = 0;
        if (s->round > 0) STEP_TRY(be->pass(w, MINK_PASS_PLACE, s)); /* and clears the round's flag */
        s->emit = s->round >= 8u; /* after 8 rounds of shortening, outright */
        STEP_TRY(be->pass(w, MINK_PASS_SAFETY, s));
        STEP_TRY(be->read(w, MINK_WB_COUNTERS, 0, MINK_COUNTERS, counters));
        conflicts = counters[1];
        s->listed = counters[4];
        /* After the first, few pairs' rounds cost more in launches and reads than in work: the
         * rest, and the place after them, in one item (mink_safety_rounds_item: the same loop). */
        if (s->round == 0 && conflicts > 0 && rounds_in_one(w, s->pairs, 8192u)) {
            STEP_TRY(be->pass(w, MINK_PASS_SAFETY_ROUNDS, s));
            goto fail; /* not a failure: the rounds are done */
        }
    }
    s->emit = 1;
    STEP_TRY(be->pass(w, MINK_PASS_PLACE, s));
fail:
    mink__world_swap(w, MINK_WB_PAIRS, MINK_WB_PAIRS2);
    w->stats.pairs_needed = needed;
    return status;
}

/* Impulses and resolution, again with more room for events until every event fitted. */
static mink_status resolution(mink_world *w, const mink_world_backend *be, mink_step_state *s, uint32_t *events) {
    mink_status status = MINK_OK;
    for (;;) {
        s->event_capacity = (uint32_t)(w->buf[MINK_WB_EVENTS].bytes / sizeof(mink_event));
        STEP_TRY(be->zero(w, MINK_WB_EVENT_COUNT, 0, 4));
        STEP_TRY(impulses(w, be, s));
        STEP_TRY(be->pass(w, MINK_PASS_RESOLVE, s));
        STEP_TRY(be->read(w, MINK_WB_EVENT_COUNT, 0, 1, events));
        if (*events <= s->event_capacity) break;
        STEP_TRY(mink__world_reserve(w, MINK_WB_EVENTS, (size_t)*events * sizeof(mink_event), 0));
    }
fail:
    return status;
}

/* After a failed step, the arrays sized by its entries and pairs go: a step that asked for too much
 * must not leave the world holding it. The next step makes them again. */
static void release_scratch(mink_world *w) {
    w->query_grid.valid = 0; /* its arrays go too */
    const mink_world_buf scratch[] = {MINK_WB_KEYS,  MINK_WB_ORDER, MINK_WB_KEYS2,        MINK_WB_ORDER2,
                                      MINK_WB_KEPT,  MINK_WB_ENTRIES, MINK_WB_FOUND,      MINK_WB_PAIRS,
                                      MINK_WB_PAIR_ENTRIES, MINK_WB_CONTACTS, MINK_WB_TWIN, MINK_WB_SWEPT, MINK_WB_RADIX, MINK_WB_SUMS,
                                      MINK_WB_PAIRS2};
    for (size_t k = 0; k < sizeof scratch / sizeof scratch[0]; k++) mink__world_release(w, scratch[k]);
}

/* Whether this step's crowd bodies of at most 2 × 2 cells go in one cell each, and every other
 * body in a column and a row more (mink_grid_single_entries): when the crowd moves and holds at
 * least 31 bodies in 32. The crowd's entries fall, but every body outside it goes in more cells:
 * with walls only among the crowd (the arena's scene A) the step ran faster, with a tenth of the
 * bodies outside it (the bullet hell's crates) slower (docs/benchmarks.md, "A moving crowd in one
 * cell each"). One pass over the host's tables after bodies were added, set or removed. The pairs
 * are the same either way, and so the bits, but where the entries the mode adds or saves tip the
 * rule above (more than 4 entries a slot) that makes a long body large: its pairs are then swept
 * from its side. */
static int crowd_single(const mink_world *w) {
    if (w->crowd[2] == MINK_GRID_NO_CROWD || !(w->crowd[2] & MINK_CONTACT_DYNAMIC)) return 0;
    size_t live = 0, crowd = 0;
    for (size_t i = 0; i < w->slots; i++) {
        if (w->shape_of[i] == MINK_WORLD_DEAD) continue;
        mink_body_props p = w->props[i];
        live++;
        crowd += p.category == w->crowd[0] && p.mask == w->crowd[1] && mink_contact_flags(p) == w->crowd[2];
    }
    return crowd * 32 >= live * 31;
}

mink_status mink__world_step_run(mink_world *w) {
    const mink_world_backend *be = w->opencl ? &mink__world_opencl : &mink__world_scalar;
    mink_step_state s = {.params = w->params, .slots = (uint32_t)w->slots};
    uint32_t events = 0;
    mink_status status = MINK_OK;
    w->pairs = w->events = 0;
    STEP_TRY(reserve_fixed(w, s.slots));
    if (s.slots == 0) goto fail; /* nothing moves */
    STEP_TRY(mink__world_renumber(w, be));
    STEP_TRY(be->mark(w, MINK_STAGE_START));
    /* The largest grow of a dynamic box, whether a dynamic body is outside the crowd, and a body
     * whose planned move leaves the float range. */
    STEP_TRY(be->zero(w, MINK_WB_COUNTERS, 2 * 4, 6 * 4));
    s.grid.crowd_category = w->crowd[0];
    s.grid.crowd_mask = w->crowd[1];
    s.grid.crowd_flags = w->crowd[2];
    if (w->crowd_single < 0) w->crowd_single = crowd_single(w);
    STEP_TRY(be->pass(w, MINK_PASS_BOUNDS, &s));
    STEP_TRY(be->pass(w, MINK_PASS_MEASURE, &s));
    STEP_TRY(be->mark(w, MINK_STAGE_BOUNDS));
    uint32_t words[6]; /* counters 2 .. 7 */
    STEP_TRY(be->read(w, MINK_WB_COUNTERS, 2, 6, words));
    if (words[5] != 0u) {
        status = mink__fail(w->ctx, MINK_ERR_INVALID_ARGUMENT,
                            "mink_world_step: dt %g carries the body in slot %u past the float range (velocity x dt, "
                            "or where it would end, overflows); nothing moved",
                            (double)s.params.dt, words[5] - 1u);
        goto fail;
    }
    w->stats.large = 0;
    /* The crowd bodies the step's pair scan finds near a dynamic body outside the crowd. */
    STEP_TRY(be->zero(w, MINK_WB_NEAR_CROWD, 0, (size_t)s.slots * 4));
    STEP_TRY(broadphase(w, be, &s, 0, mink_bits_float(words[0]), &w->stats.large));
    if (w->near_crowd_all) STEP_TRY(mark_all_near(w, be, s.slots));
    STEP_TRY(be->mark(w, MINK_STAGE_BROADPHASE));
    /* Each body's list sized, then the narrowphase fills the lists. */
    STEP_TRY(be->zero(w, MINK_WB_ADJ_START, 0, ((size_t)s.slots + 1) * 4));
    STEP_TRY(be->zero(w, MINK_WB_ADJ_FILL, 0, (size_t)s.slots * 4));
    STEP_TRY(be->pass(w, MINK_PASS_DEGREE, &s));
    STEP_TRY(be->scan(w, MINK_WB_ADJ_START, s.slots));
    STEP_TRY(be->pass(w, MINK_PASS_NARROW, &s));
    STEP_TRY(be->mark(w, MINK_STAGE_NARROWPHASE));
    STEP_TRY(resolution(w, be, &s, &events));
    STEP_TRY(safety(w, be, &s, words[3]));
    STEP_TRY(be->mark(w, MINK_STAGE_RESOLUTION));
    mink__world_swap(w, MINK_WB_POS, MINK_WB_POS_OUT);
    mink__world_swap(w, MINK_WB_VEL, MINK_WB_VEL_OUT);
    w->pairs = w->stats.pairs = s.pairs;
    w->events = w->stats.events = events;
    if (s.entries > 0) w->order_grid = s.grid; /* for the next renumbering */
    w->order_listed = s.listed;
fail:
    be->end(w, status);
    if (status != MINK_OK) release_scratch(w);
    return status;
}
