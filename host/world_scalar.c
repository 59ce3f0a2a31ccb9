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

/* A pass: the item function of core/step.h over its items, on a view of the arrays as they are now. */
static mink_status scalar_pass(mink_world *w, mink_world_pass pass, const mink_step_state *s) {
    mink_world_view v = scalar_view(w);
    uint32_t n = s->slots, *cells = v.cells, *found = v.found;
    switch (pass) {
    case MINK_PASS_BOUNDS:
        for (uint32_t i = 0; i < n; i++) mink_bounds_item(v, *s, i);
        break;
    case MINK_PASS_MEASURE: mink_measure_block(v, 0, 1, v.measure); break; /* one block: the measure itself */
    case MINK_PASS_GRID_COUNT:
        for (uint32_t i = 0; i < n; i++) {
            int large;
            cells[i] = mink_grid_count_item(v, s->grid, i, &large);
            cells[n + 1] += (uint32_t)large;
        }
        break;
    case MINK_PASS_GRID_EMIT:
        for (uint32_t i = 0; i < n; i++) mink_grid_emit_item(v, s->grid, i);
        break;
    case MINK_PASS_GRID_GATHER:
        for (uint32_t r = 0; r < s->entries; r++) mink_grid_gather_item(v, r);
        break;
    case MINK_PASS_PAIRS_COUNT:
        for (uint32_t r = 0; r < s->entries; r++) found[r] = mink_grid_pairs_count(v, s->grid, s->entries, r);
        for (uint32_t j = 0; j < s->items - s->entries; j++)
            found[s->entries + j] = mink_large_pairs_item(v, s->grid, s->entries, cells[n + 1], j, 0, 0);
        break;
    case MINK_PASS_PAIRS_WRITE: /* only the items that found pairs write them */
        for (uint32_t r = 0; r < s->entries; r++)
            if (found[r + 1] != found[r]) mink_grid_pairs_write(v, s->grid, s->entries, r, found[r]);
        for (uint32_t j = 0, r = s->entries; r < s->items; j++, r++)
            if (found[r + 1] != found[r]) mink_large_pairs_item(v, s->grid, s->entries, cells[n + 1], j, 1, found[r]);
        break;
    case MINK_PASS_DEGREE:
        for (uint32_t k = 0; k < s->pairs; k++) mink_degree_item(v, k);
        break;
    case MINK_PASS_NARROW:
        for (uint32_t k = 0; k < s->pairs; k++) mink_narrow_item(v, *s, k);
        break;
    case MINK_PASS_RESWEEP:
        for (uint32_t k = 0; k < s->listed; k++) mink_resweep_item(v, *s, k);
        break;
    case MINK_PASS_PICK:
        for (uint32_t k = 0; k < (s->round == 0 ? n : s->listed); k++) mink_pick_item(v, *s, k);
        break;
    case MINK_PASS_FIRE:
        for (uint32_t k = 0; k < s->listed; k++) mink_fire_item(v, *s, k);
        break;
    case MINK_PASS_RESOLVE:
        for (uint32_t i = 0; i < n; i++) mink_resolve_item(v, *s, i);
        break;
    case MINK_PASS_FINAL_BOUNDS:
        for (uint32_t i = 0; i < n; i++) mink_final_bounds_item(v, *s, i);
        break;
    case MINK_PASS_SAFETY:
        for (uint32_t k = 0; k < s->pairs; k++) mink_safety_item(v, *s, k);
        break;
    case MINK_PASS_PLACE:
        for (uint32_t k = 0; k < s->listed; k++) mink_place_item(v, *s, k);
        break;
    case MINK_PASS_IMPULSE_ROUNDS: mink_impulse_rounds_item(v, *s, 0); break;
    case MINK_PASS_SAFETY_ROUNDS: mink_safety_rounds_item(v, *s, 0); break;
    case MINK_PASS_ORDER_KEY:
        for (uint32_t i = 0; i < n; i++) mink_order_key_item(v, s->grid, i);
        break;
    case MINK_PASS_ORDER_GATHER:
        for (uint32_t k = 0; k < n; k++) mink_order_gather_item(v, k);
        break;
    case MINK_PASS_QUERY_BOUNDS:
        for (uint32_t i = 0; i < n; i++) mink_query_bounds_item(v, *s, i);
        break;
    case MINK_PASS_QUERY:
        for (uint32_t k = 0; k < s->query.count; k++) mink_query_item(v, *s, k);
        break;
    case MINK_PASS_QUERY_MOVE:
        for (uint32_t k = 0; k < s->query.count; k++) mink_query_move_item(v, *s, k);
        break;
    }
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
