/* host/world_scalar.c — the scalar backend of a world step (world_step.c): the passes of core/step.h
 * in loops over host arrays. */
#include <string.h>

#include "world_internal.h"

/* An array as the passes see it: the host copies serve for the bodies' fixed fields. */
static void *host_array(mink_world *w, mink_world_buf b) {
    switch (b) {
    case MINK_WB_SHAPES: return w->shapes;
    case MINK_WB_SHAPE_OF: return w->shape_of;
    case MINK_WB_PROPS: return w->props;
    case MINK_WB_IDS: return w->ids;
    case MINK_WB_SLOT_OF: return w->slot_of;
    default: return w->buf[b].host;
    }
}

/* The view of the world's arrays as they are now (reserving may move them). */
static mink_world_view scalar_view(mink_world *w) {
    mink_world_view v;
    v.count = (uint32_t)w->slots;
#define MINK_VIEW_SET(NAME, field, type) v.field = host_array(w, MINK_WB_##NAME);
    MINK_WORLD_ARRAYS(MINK_VIEW_SET)
#undef MINK_VIEW_SET
    v.event_capacity = (uint32_t)(w->buf[MINK_WB_EVENTS].bytes / sizeof(mink_event));
    return v;
}

/* A pass's job: items [begin, end) of it, run by one of the context's threads (mink__split). */
typedef struct pass_job {
    mink_world_view v;
    mink_step_state s;
    mink_world_pass pass;
    uint32_t large; /* GRID_COUNT: its large slots, summed over the threads */
} pass_job;

/* Items [b, e) of the pass, one loop a pass (a switch an item kept GCC from hoisting the view). */
#define MINK_ITEMS(call)                                                                           \
    for (uint32_t k = b; k < e; k++) call;                                                         \
    break

static void pass_range(void *arg, size_t begin, size_t end) {
    pass_job *job = arg;
    mink_world_view v = job->v;
    const mink_step_state *s = &job->s;
    uint32_t n = s->slots, *cells = v.cells, *found = v.found, large = 0, b = (uint32_t)begin, e = (uint32_t)end;
    switch (job->pass) {
    case MINK_PASS_BOUNDS: MINK_ITEMS(mink_bounds_item(v, *s, k));
    case MINK_PASS_GRID_COUNT:
        for (uint32_t k = b; k < e; k++) {
            int big;
            cells[k] = mink_grid_count_item(v, s->grid, k, &big);
            large += (uint32_t)big;
        }
        break;
    case MINK_PASS_GRID_EMIT: MINK_ITEMS(mink_grid_emit_item(v, s->grid, k));
    case MINK_PASS_GRID_GATHER: MINK_ITEMS(mink_grid_gather_item(v, k));
    /* Items [0, entries) take a sorted entry each, the rest a slot each (its pairs with the large
     * bodies), as the kernel's do. */
    case MINK_PASS_PAIRS_COUNT:
        MINK_ITEMS(found[k] = k < s->entries ? mink_grid_pairs_count(v, s->grid, s->entries, k)
                                             : mink_large_pairs_item(v, s->grid, s->entries, cells[n + 1],
                                                                     k - s->entries, 0, 0));
    case MINK_PASS_PAIRS_WRITE: /* only the items that found pairs write them */
        for (uint32_t k = b; k < e; k++) {
            if (found[k + 1] == found[k]) continue;
            if (k < s->entries)
                mink_grid_pairs_write(v, s->grid, s->entries, k, found[k]);
            else
                mink_large_pairs_item(v, s->grid, s->entries, cells[n + 1], k - s->entries, 1, found[k]);
        }
        break;
    case MINK_PASS_DEGREE: MINK_ITEMS(mink_degree_item(v, k));
    case MINK_PASS_NARROW: MINK_ITEMS(mink_narrow_item(v, *s, k));
    case MINK_PASS_RESWEEP: MINK_ITEMS(mink_resweep_item(v, *s, k));
    case MINK_PASS_PICK: MINK_ITEMS(mink_pick_item(v, *s, k));
    case MINK_PASS_FIRE: MINK_ITEMS(mink_fire_item(v, *s, k));
    case MINK_PASS_RESOLVE: MINK_ITEMS(mink_resolve_item(v, *s, k));
    case MINK_PASS_FINAL_BOUNDS: MINK_ITEMS(mink_final_bounds_item(v, *s, k));
    case MINK_PASS_SAFETY: MINK_ITEMS(mink_safety_item(v, *s, k));
    case MINK_PASS_PLACE: MINK_ITEMS(mink_place_item(v, *s, k));
    case MINK_PASS_ORDER_KEY: MINK_ITEMS(mink_order_key_item(v, s->grid, k));
    case MINK_PASS_ORDER_GATHER: MINK_ITEMS(mink_order_gather_item(v, k));
    case MINK_PASS_QUERY_BOUNDS: MINK_ITEMS(mink_query_bounds_item(v, *s, k));
    case MINK_PASS_QUERY: MINK_ITEMS(mink_query_item(v, *s, k));
    case MINK_PASS_QUERY_MOVE: MINK_ITEMS(mink_query_move_item(v, *s, k));
    default: break; /* one item each: scalar_pass runs them */
    }
    if (large > 0) MINK_ATOMIC_ADD(&job->large, large);
}

/* A pass's items. */
static uint32_t pass_items(mink_world_pass pass, const mink_step_state *s) {
    switch (pass) {
    case MINK_PASS_GRID_GATHER: return s->entries;
    case MINK_PASS_PAIRS_COUNT:
    case MINK_PASS_PAIRS_WRITE: return s->items;
    case MINK_PASS_DEGREE:
    case MINK_PASS_NARROW:
    case MINK_PASS_SAFETY: return s->pairs;
    case MINK_PASS_RESWEEP:
    case MINK_PASS_FIRE:
    case MINK_PASS_PLACE: return s->listed;
    case MINK_PASS_PICK: return s->round == 0 ? s->slots : s->listed;
    case MINK_PASS_QUERY:
    case MINK_PASS_QUERY_MOVE: return s->query.count;
    default: return s->slots;
    }
}

/* Items a thread takes at least: fewer cost more to start a thread for than they save. */
#define MINK_WORLD_ITEMS_EACH 2048u

/* A pass: the item function of core/step.h over its items, on a view of the arrays as they are
 * now, split over the context's threads. The items of a pass depend on no order (the device runs
 * them side by side): the same bits on any number of threads. */
static mink_status scalar_pass(mink_world *w, mink_world_pass pass, const mink_step_state *s) {
    pass_job job = {scalar_view(w), *s, pass, 0};
    switch (pass) {
    case MINK_PASS_MEASURE: mink_measure_block(job.v, 0, 1, job.v.measure); return MINK_OK; /* one block */
    case MINK_PASS_IMPULSE_ROUNDS: mink_impulse_rounds_item(job.v, *s, 0); return MINK_OK;
    case MINK_PASS_SAFETY_ROUNDS: mink_safety_rounds_item(job.v, *s, 0); return MINK_OK;
    default: break;
    }
    size_t items = pass_items(pass, s);
#if defined(MINK_WORLD_THREADS)
    mink__split(w->ctx, items, w->items_each ? w->items_each : MINK_WORLD_ITEMS_EACH, pass_range, &job);
#else
    pass_range(&job, 0, items); /* plain read-modify-writes for atomics (core/world.h): one thread */
#endif
    if (pass == MINK_PASS_GRID_COUNT) job.v.cells[s->slots + 1] += job.large;
    return MINK_OK;
}

static mink_status scalar_scan(mink_world *w, mink_world_buf a, uint32_t n) {
    mink_scan_top(n, w->buf[a].host);
    return MINK_OK;
}

/* The radix sort a pass at a time, into KEYS2 and ORDER2, then swapped, so the sorted entries are
 * always in KEYS and ORDER. With one block the counts are just the 256 digits' (the device uses
 * many blocks; the same permutation). */
static mink_status scalar_sort(mink_world *w, uint32_t n, uint32_t passes) {
    mink_status status = mink__world_reserve(w, MINK_WB_RADIX, (MINK_RADIX_BINS + 1) * 4, 0);
    for (uint32_t shift = 0; shift < passes * 8 && status == MINK_OK; shift += 8) {
        uint32_t *counts = w->buf[MINK_WB_RADIX].host;
        mink_radix_count_block(0, 1, n, shift, w->buf[MINK_WB_KEYS].host, counts);
        mink_scan_top(MINK_RADIX_BINS, counts);
        mink_radix_scatter_block(0, 1, n, shift, w->buf[MINK_WB_KEYS].host, w->buf[MINK_WB_ORDER].host, counts,
                                 w->buf[MINK_WB_KEYS2].host, w->buf[MINK_WB_ORDER2].host);
        mink__world_swap(w, MINK_WB_KEYS, MINK_WB_KEYS2);
        mink__world_swap(w, MINK_WB_ORDER, MINK_WB_ORDER2);
    }
    return status;
}

static mink_status scalar_read(mink_world *w, mink_world_buf b, size_t index, size_t count, uint32_t *out) {
    memcpy(out, (const uint32_t *)w->buf[b].host + index, count * 4);
    return MINK_OK;
}

static mink_status scalar_zero(mink_world *w, mink_world_buf b, size_t offset, size_t bytes) {
    if (bytes > 0) memset((char *)w->buf[b].host + offset, 0, bytes);
    return MINK_OK;
}

static mink_status scalar_write(mink_world *w, mink_world_buf b, size_t bytes, const void *from) {
    if (bytes > 0) memcpy(w->buf[b].host, from, bytes);
    return MINK_OK;
}

/* The stages' shares from the clock, read as each ends (a retried resolution ends later). */
static mink_status scalar_mark(mink_world *w, int stage) {
    w->stage_ms[stage] = mink__now_ms();
    return MINK_OK;
}

static void scalar_end(mink_world *w, mink_status status) {
    if (status != MINK_OK || w->slots == 0) return;
    double *share[MINK_STAGE_COUNT] = {NULL, &w->stats.bounds_ms, &w->stats.broadphase_ms, &w->stats.narrowphase_ms,
                                       &w->stats.resolution_ms};
    for (int k = 1; k < MINK_STAGE_COUNT; k++) *share[k] = w->stage_ms[k] - w->stage_ms[k - 1];
}

const mink_world_backend mink__world_scalar = {scalar_pass, scalar_scan, scalar_sort, scalar_read,
                                               scalar_zero, scalar_write, scalar_mark, scalar_end};
