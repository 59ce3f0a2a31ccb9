/* host/world_scalar.c — a world step on the scalar path: the passes of core/step.h in loops. */
#include <string.h>

#include "world_internal.h"

/* The view of the world's arrays as they are now (reserving may move them). */
static mink_world_view scalar_view(mink_world *w) {
    mink_world_view v;
    memset(&v, 0, sizeof v);
    v.count = (uint32_t)w->slots;
    v.shapes = w->shapes;
    v.shape_of = w->shape_of;
    v.props = w->props;
    v.ids = w->ids;
    v.pos = w->buf[MINK_WB_POS].host;
    v.vel = w->buf[MINK_WB_VEL].host;
    v.bounds = w->buf[MINK_WB_BOUNDS].host;
    v.records = w->buf[MINK_WB_RECORDS].host;
    v.measure = w->buf[MINK_WB_MEASURE].host;
    v.cells = w->buf[MINK_WB_CELLS].host;
    v.keys = w->buf[MINK_WB_KEYS].host;
    v.order = w->buf[MINK_WB_ORDER].host;
    v.entries = w->buf[MINK_WB_ENTRIES].host;
    v.kept = w->buf[MINK_WB_KEPT].host;
    v.pairs = w->buf[MINK_WB_PAIRS].host;
    v.pair_entries = w->buf[MINK_WB_PAIR_ENTRIES].host;
    v.adj_start = w->buf[MINK_WB_ADJ_START].host;
    v.adj_fill = w->buf[MINK_WB_ADJ_FILL].host;
    v.contacts = w->buf[MINK_WB_CONTACTS].host;
    v.pos_out = w->buf[MINK_WB_POS_OUT].host;
    v.vel_out = w->buf[MINK_WB_VEL_OUT].host;
    v.events = w->buf[MINK_WB_EVENTS].host;
    v.event_count = w->buf[MINK_WB_COUNTER].host;
    v.event_capacity = (uint32_t)(w->buf[MINK_WB_EVENTS].bytes / sizeof(mink_event));
    return v;
}

static void swap(mink_world *w, mink_world_buf a, mink_world_buf b) {
    mink_world_array t = w->buf[a];
    w->buf[a] = w->buf[b];
    w->buf[b] = t;
}

/* One pass of the radix sort: keys and order into KEYS2 and ORDER2, then swapped, so the sorted
 * entries are always in KEYS and ORDER. With one
 * block the counts are just the 256 digits' (the device uses many blocks; same permutation). */
static void radix_pass(mink_world *w, size_t n, uint32_t shift) {
    uint32_t *counts = w->buf[MINK_WB_RADIX].host;
    mink_radix_count_block(0, 1, (uint32_t)n, shift, w->buf[MINK_WB_KEYS].host, counts);
    mink_scan_top(MINK_RADIX_BINS, counts);
    mink_radix_scatter_block(0, 1, (uint32_t)n, shift, w->buf[MINK_WB_KEYS].host, w->buf[MINK_WB_ORDER].host, counts,
                             w->buf[MINK_WB_KEYS2].host, w->buf[MINK_WB_ORDER2].host);
    swap(w, MINK_WB_KEYS, MINK_WB_KEYS2);
    swap(w, MINK_WB_ORDER, MINK_WB_ORDER2);
}

mink_status mink__world_scalar_step(mink_world *w) {
    uint32_t n = (uint32_t)w->slots;
    size_t n1 = (size_t)n + 1;
    mink_step_params sp = w->params;
    mink_status status = MINK_OK;
    const struct {
        mink_world_buf b;
        size_t bytes;
    } per_slot[] = {
        {MINK_WB_BOUNDS, n * sizeof(mink_aabb)}, {MINK_WB_RECORDS, n * sizeof(mink_grid_entry)},
        {MINK_WB_MEASURE, MINK_MEASURE_WORDS * 4},
        {MINK_WB_CELLS, n1 * 4}, {MINK_WB_RADIX, (MINK_RADIX_BINS + 1) * 4},
        {MINK_WB_ADJ_START, n1 * 4}, {MINK_WB_ADJ_FILL, n * 4},
        /* Full size: they become the body arrays when the step swaps them in. */
        {MINK_WB_POS_OUT, w->capacity * sizeof(mink_vec2)}, {MINK_WB_VEL_OUT, w->capacity * sizeof(mink_vec2)},
    };
    for (size_t k = 0; k < sizeof per_slot / sizeof per_slot[0] && status == MINK_OK; k++)
        status = mink__world_reserve(w, per_slot[k].b, per_slot[k].bytes, 0);
    if (status != MINK_OK) return status;

    double t = mink__now_ms();
    mink_world_view v = scalar_view(w);
    for (uint32_t i = 0; i < n; i++) mink_bounds_item(v, sp, i);
    mink_measure_block(v, 0, 1, v.measure); /* one block: the measure itself */
    double now = mink__now_ms();
    w->stats.bounds_ms = now - t;
    t = now;

    /* Broadphase: bodies into grid cells, entries sorted by cell, pairs within each cell. */
    mink_grid g;
    uint32_t passes = 0;
    size_t entries = 0;
    uint32_t *cells = w->buf[MINK_WB_CELLS].host;
    int any = mink__world_grid(w, v.measure, &g, &passes), large = 0;
    for (uint32_t i = 0; i < n; i++) {
        cells[i] = any ? mink_grid_count_item(v, g, i) : 0u;
        large |= mink_grid_large_with(v, i, cells[i]);
    }
    cells[n] = 0;
    mink_scan_top(n, cells);
    entries = cells[n];
    /* Large bodies (rare: none in most scenes) are tested against every body, a slot an item. */
    size_t found_n = entries + (large ? n : 0);
    const mink_world_buf per_entry[] = {MINK_WB_KEYS, MINK_WB_ORDER, MINK_WB_KEYS2, MINK_WB_ORDER2, MINK_WB_KEPT};
    for (size_t k = 0; k < 5 && status == MINK_OK; k++) status = mink__world_reserve(w, per_entry[k], entries * 4, 0);
    if (status == MINK_OK) status = mink__world_reserve(w, MINK_WB_ENTRIES, entries * sizeof(mink_grid_entry), 0);
    if (status == MINK_OK) status = mink__world_reserve(w, MINK_WB_FOUND, (found_n + 1) * 4, 0);
    if (status != MINK_OK) return status;
    v = scalar_view(w);
    for (uint32_t i = 0; i < n && entries > 0; i++) mink_grid_emit_item(v, g, i);
    for (uint32_t pass = 0; pass < passes; pass++) radix_pass(w, entries, pass * 8);
    v = scalar_view(w);
    for (uint32_t r = 0; r < entries; r++) mink_grid_gather_item(v, r);
    uint32_t *found = w->buf[MINK_WB_FOUND].host;
    for (uint32_t r = 0; r < entries; r++) found[r] = mink_grid_pairs_count(v, g, (uint32_t)entries, r);
    for (uint32_t i = 0; i < n && large; i++) found[entries + i] = mink_large_pairs_item(v, i, 0, 0);
    mink_scan_top((uint32_t)found_n, found);
    size_t pairs = found[found_n];
    w->stats.pairs_needed = pairs;
    if (pairs > w->max_pairs)
        return mink__fail(w->ctx, MINK_ERR_CAPACITY, "mink_world_step: the broadphase found %zu pairs; max_pairs is %zu",
                          pairs, w->max_pairs);
    status = mink__world_reserve(w, MINK_WB_PAIRS, pairs * sizeof(mink_world_pair), 0);
    if (status == MINK_OK) status = mink__world_reserve(w, MINK_WB_PAIR_ENTRIES, pairs * sizeof(mink_world_pair), 0);
    if (status == MINK_OK) status = mink__world_reserve(w, MINK_WB_CONTACTS, pairs * 2 * sizeof(mink_contact), 0);
    if (status != MINK_OK) return status;
    v = scalar_view(w);
    /* Only the items that found pairs write them. */
    for (uint32_t r = 0; r < entries; r++)
        if (found[r + 1] != found[r]) mink_grid_pairs_write(v, g, (uint32_t)entries, r, found[r]);
    for (uint32_t i = 0; i < n && large; i++)
        if (found[entries + i + 1] != found[entries + i]) mink_large_pairs_item(v, i, 1, found[entries + i]);
    now = mink__now_ms();
    w->stats.broadphase_ms = now - t;
    t = now;

    /* Each body's list sized, then the narrowphase fills the lists. */
    memset(v.adj_start, 0, n1 * sizeof *v.adj_start);
    if (n > 0) memset(v.adj_fill, 0, n * sizeof *v.adj_fill); /* an empty world has no array */
    for (uint32_t k = 0; k < pairs; k++) mink_degree_item(v, k);
    mink_scan_top(n, v.adj_start);
    for (uint32_t k = 0; k < pairs; k++) mink_narrow_item(v, sp, k);
    now = mink__now_ms();
    w->stats.narrowphase_ms = now - t;
    t = now;

    for (;;) { /* until the event buffer held every event */
        *v.event_count = 0;
        for (uint32_t i = 0; i < n; i++) mink_resolve_item(v, sp, i);
        if (*v.event_count <= v.event_capacity) break;
        status = mink__world_reserve(w, MINK_WB_EVENTS, (size_t)*v.event_count * sizeof(mink_event), 0);
        if (status != MINK_OK) return status;
        v = scalar_view(w);
    }
    w->stats.resolution_ms = mink__now_ms() - t;

    swap(w, MINK_WB_POS, MINK_WB_POS_OUT);
    swap(w, MINK_WB_VEL, MINK_WB_VEL_OUT);
    w->pairs = pairs;
    w->events = *v.event_count;
    w->stats.pairs = pairs;
    w->stats.events = w->events;
    return MINK_OK;
}
