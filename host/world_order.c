/* host/world_order.c — bodies renumbered by place. Every few steps a world sorts its bodies by the
 * grid cell each is in, row by row, and moves every per-body array into that order, so that
 * the bodies of a pair, near each other in space, sit near each other in memory: a step's passes
 * read the other body of each pair at random, and in the order bodies were added those reads miss
 * every cache (docs/benchmarks.md, "Round three" and "Bodies renumbered by place"). The public slots
 * stay: slot_of and index_of translate at every entry point, and every tie in the passes goes by
 * the public slot, so the answers are the same bits whether or when bodies were renumbered. */
#include <stdlib.h>
#include <string.h>

#include "world_internal.h"

/* Steps between renumberings, and the share of the bodies the last step's impulse rounds must have
 * listed (bodies with a dynamic body in their list) for one: those rounds and the safety
 * rounds are what reads the other body of a pair at random, many times a step. A renumbering costs
 * about a sort of the bodies' keys and a pass over their arrays: a real share of a step where bodies
 * rarely meet each other (the bullet hell), which it does not repay (docs/benchmarks.md). */
#define ORDER_EVERY 4u
#define ORDER_LISTED 8u /* one body in 8 */

/* Moves n elements of `size` bytes into the order (new k holds old order[k]), through tmp. */
static void permute(void *base, const uint32_t *order, size_t n, size_t size, void *tmp) {
    const char *from = base;
    for (size_t k = 0; k < n; k++) memcpy((char *)tmp + k * size, from + (size_t)order[k] * size, size);
    memcpy(base, tmp, n * size);
}

mink_status mink__world_renumber(mink_world *w, const mink_world_backend *be) {
    int due = ++w->order_age >= ORDER_EVERY && (size_t)w->order_listed * ORDER_LISTED >= w->slots;
    if (w->order_grid.buckets == 0 || !(due || w->order_always)) return MINK_OK;
    size_t n = w->slots;
    mink_step_state s = {.params = w->params, .slots = (uint32_t)n, .grid = w->order_grid};
    uint32_t passes = 1; /* the sort's: bytes of the largest key, g.buckets */
    while (passes < 4 && s.grid.buckets >> (8 * passes) != 0) passes++;
    mink_status status = MINK_OK;
    const mink_world_buf words[] = {MINK_WB_KEYS, MINK_WB_ORDER, MINK_WB_KEYS2, MINK_WB_ORDER2};
    for (size_t k = 0; k < sizeof words / sizeof words[0] && status == MINK_OK; k++)
        status = mink__world_reserve(w, words[k], n * 4, 0);
    uint32_t *order = status == MINK_OK ? malloc(n * sizeof *order) : NULL;
    void *tmp = order ? malloc(n * sizeof(mink_body_props)) : NULL;
    if (status == MINK_OK && tmp == NULL)
        status = mink__fail(w->ctx, MINK_ERR_OUT_OF_MEMORY, "mink_world_step: out of memory renumbering bodies");
    /* The new order, and the positions and velocities gathered into it (into the step's output
     * arrays: nothing the world holds changes until every part has worked). */
    if (status == MINK_OK) status = be->pass(w, MINK_PASS_ORDER_KEY, &s);
    if (status == MINK_OK) status = be->sort(w, (uint32_t)n, passes);
    if (status == MINK_OK) status = be->pass(w, MINK_PASS_ORDER_GATHER, &s);
    if (status == MINK_OK) status = be->read(w, MINK_WB_ORDER, 0, n, order);
    if (status == MINK_OK) {
        permute(w->shape_of, order, n, sizeof *w->shape_of, tmp);
        permute(w->props, order, n, sizeof *w->props, tmp);
        permute(w->ids, order, n, sizeof *w->ids, tmp);
        permute(w->slot_of, order, n, sizeof *w->slot_of, tmp);
        for (size_t k = 0; k < n; k++) w->index_of[w->slot_of[k]] = (uint32_t)k;
        mink__world_swap(w, MINK_WB_POS, MINK_WB_POS_OUT);
        mink__world_swap(w, MINK_WB_VEL, MINK_WB_VEL_OUT);
        w->renumbered = 1;
        w->order_age = 0;
        w->dirty = w->opencl; /* the device's copies of the tables, sent whole */
        status = mink__world_resync(w);
    }
    free(order);
    free(tmp);
    return status;
}
