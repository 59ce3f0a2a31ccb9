/* host/world_query.c — questions to a world as it stands (mink/world.h): the arguments checked, a
 * grid over the bodies a call sees (the step's, world_step.c), then the query pass of core/query.h
 * on the world's backend: the first hit of each query, or its hits counted, placed and written. */
#include <stdlib.h>
#include <string.h>

#include "world_internal.h"

#define QUERY_TRY(expr)                                                                            \
    do {                                                                                           \
        status = (expr);                                                                           \
        if (status != MINK_OK) goto fail;                                                          \
    } while (0)

/* The most queries a call takes: their counts and places are 32-bit words on the device. */
#define QUERY_MAX ((size_t)1 << 30)

static mink_status check(mink_world *w, const char *fn, const void *queries, size_t count, const void *out,
                         size_t capacity, const size_t *starts, int lists) {
    if (w == NULL) return mink__fail(NULL, MINK_ERR_INVALID_ARGUMENT, "%s: world is NULL", fn);
    if (mink__async_guard(w->ctx, fn) != MINK_OK) return MINK_ERR_INVALID_ARGUMENT;
    if (count > QUERY_MAX)
        return mink__fail(w->ctx, MINK_ERR_INVALID_ARGUMENT, "%s: %zu queries is more than a call takes (%zu)", fn,
                          count, QUERY_MAX);
    if (count > 0 && queries == NULL) return mink__fail(w->ctx, MINK_ERR_INVALID_ARGUMENT, "%s: queries is NULL", fn);
    if (lists && starts == NULL) return mink__fail(w->ctx, MINK_ERR_INVALID_ARGUMENT, "%s: starts is NULL", fn);
    if ((lists ? capacity > 0 : count > 0) && out == NULL)
        return mink__fail(w->ctx, MINK_ERR_INVALID_ARGUMENT, "%s: the output array is NULL", fn);
    return MINK_OK;
}

/* A float from its key (mink_sort_key's inverse). */
static float key_float(uint32_t k) { return mink_bits_float((k & 0x80000000u) ? (k & 0x7fffffffu) : ~k); }

/* The grid over the bodies the filter sees, and the queries on the device: s is ready for the
 * query pass but for its mode. */
static mink_status prepare(mink_world *w, const mink_world_backend *be, const mink_world_query *queries, size_t count,
                           const mink_world_filter *filter, mink_step_state *s) {
    mink_status status = MINK_OK;
    uint32_t measure[4];
    mink_world_filter f = filter ? *filter : (mink_world_filter){0};
    memset(s, 0, sizeof *s);
    s->params = w->params;
    s->slots = (uint32_t)w->slots;
    s->query.category = f.category ? f.category : 0xffffffffu;
    s->query.mask = f.mask ? f.mask : 0xffffffffu;
    s->query.sensors = f.sensors != 0;
    s->query.count = (uint32_t)count;
    s->query.shapes = (uint32_t)w->shape_count;
    s->grid.inv_cell = 1.0f; /* a world of no box seen: a grid no walk enters (the world box is empty) */
    s->grid.buckets = MINK_GRID_MIN_BUCKETS;
    s->query.world.min = mink_v2(MINK_INF, MINK_INF);
    s->query.world.max = mink_v2(-MINK_INF, -MINK_INF);
    QUERY_TRY(mink__world_resync(w));
    QUERY_TRY(mink__world_reserve(w, MINK_WB_QUERIES, count * sizeof(mink_world_query), 0));
    QUERY_TRY(mink__world_reserve(w, MINK_WB_QUERY_FOUND, (count + 1) * 4, 0));
    QUERY_TRY(be->write(w, MINK_WB_QUERIES, count * sizeof(mink_world_query), queries));
    if (w->query_grid.valid && w->query_grid.category == s->query.category && w->query_grid.mask == s->query.mask &&
        w->query_grid.sensors == s->query.sensors) { /* the last call's grid: nothing has moved since */
        s->grid = w->query_grid.grid;
        s->entries = w->query_grid.entries;
        s->query.world = w->query_grid.world;
        return MINK_OK;
    }
    w->query_grid.valid = 0;
    QUERY_TRY(mink__world_reserve(w, MINK_WB_BOUNDS, w->slots * sizeof(mink_aabb) + 1, 0));
    QUERY_TRY(mink__world_reserve(w, MINK_WB_MEASURE, MINK_MEASURE_WORDS * 4, 0));
    QUERY_TRY(mink__world_reserve(w, MINK_WB_CELLS, (w->slots + 2) * 4, 0));
    QUERY_TRY(mink__world_reserve(w, MINK_WB_SHAPES, sizeof(mink_shape), 0));
    QUERY_TRY(be->zero(w, MINK_WB_CELLS, (w->slots + 1) * 4, 4)); /* no large body until the grid says */
    if (w->slots > 0) {
        QUERY_TRY(be->pass(w, MINK_PASS_QUERY_BOUNDS, s));
        QUERY_TRY(be->pass(w, MINK_PASS_MEASURE, s));
        QUERY_TRY(be->read(w, MINK_WB_MEASURE, 0, 4, measure));
    }
    if (w->slots > 0 && measure[0] != 0xffffffffu) { /* else no body seen */
        s->query.world.min = mink_v2(key_float(measure[0]), key_float(measure[1]));
        s->query.world.max = mink_v2(key_float(measure[2]), key_float(measure[3]));
        QUERY_TRY(mink__world_grid_build(w, be, s, 0.0f, 0, 0, NULL));
    }
    w->query_grid.valid = 1;
    w->query_grid.category = s->query.category;
    w->query_grid.mask = s->query.mask;
    w->query_grid.sensors = s->query.sensors;
    w->query_grid.grid = s->grid;
    w->query_grid.entries = s->entries;
    w->query_grid.world = s->query.world;
fail:
    return status;
}

/* Slots to handles in the hits read back: a hit names its body's slot on the device. */
static void name_bodies(const mink_world *w, mink_world_hit *hits, size_t n) {
    for (size_t k = 0; k < n; k++)
        hits[k].body = hits[k].hit.flags != 0u && hits[k].body < w->slots ? mink__world_handle(w, hits[k].body)
                                                                           : MINK_WORLD_DEAD;
}

static const mink_world_backend *backend(const mink_world *w) {
    return w->opencl ? &mink__world_opencl : &mink__world_scalar;
}

/* Each query's first hit. */
static mink_status first_hits(mink_world *w, const mink_world_query *queries, size_t count,
                              const mink_world_filter *filter, mink_world_hit *hits) {
    const mink_world_backend *be = backend(w);
    mink_step_state s;
    mink_status status = MINK_OK;
    if (count == 0) return MINK_OK;
    QUERY_TRY(prepare(w, be, queries, count, filter, &s));
    QUERY_TRY(mink__world_reserve(w, MINK_WB_QUERY_HITS, count * sizeof(mink_world_hit), 0));
    s.query.mode = MINK_QUERY_FIRST;
    QUERY_TRY(be->pass(w, MINK_PASS_QUERY, &s));
    QUERY_TRY(be->read(w, MINK_WB_QUERY_HITS, 0, count * sizeof(mink_world_hit) / 4, (uint32_t *)hits));
    name_bodies(w, hits, count);
fail:
    if (status != MINK_OK && w->opencl) clFinish(w->ctx->queue);
    return status;
}

/* Every query's hits: counted, placed (starts), and written for the queries that fit in capacity,
 * to hits, or with hits NULL to a buffer this makes (*out, the caller's to free). */
static mink_status all_hits(mink_world *w, const char *fn, const mink_world_query *queries, size_t count,
                            const mink_world_filter *filter, mink_world_hit *hits, size_t capacity, size_t *starts,
                            mink_world_hit **out) {
    const mink_world_backend *be = backend(w);
    mink_step_state s;
    mink_status status = MINK_OK;
    uint32_t *found = NULL;
    starts[0] = 0;
    if (count == 0) return MINK_OK;
    QUERY_TRY(prepare(w, be, queries, count, filter, &s));
    s.query.mode = MINK_QUERY_COUNT;
    QUERY_TRY(be->pass(w, MINK_PASS_QUERY, &s));
    QUERY_TRY(be->scan(w, MINK_WB_QUERY_FOUND, (uint32_t)count));
    found = malloc((count + 1) * 4);
    if (found == NULL) {
        status = mink__fail(w->ctx, MINK_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
        goto fail;
    }
    QUERY_TRY(be->read(w, MINK_WB_QUERY_FOUND, 0, count + 1, found));
    if (found[count] == MINK_SCAN_FULL) {
        status = mink__fail(w->ctx, MINK_ERR_CAPACITY, "%s: the queries meet %u bodies or more", fn, MINK_SCAN_FULL);
        goto fail;
    }
    /* The hits of the queries that fit: those before the first that ends past the capacity. */
    size_t fit = 0;
    for (size_t k = 0; k <= count; k++) {
        starts[k] = found[k];
        if (found[k] <= capacity) fit = found[k];
    }
    if (fit == 0) goto fail; /* nothing to write */
    s.query.mode = MINK_QUERY_WRITE;
    s.query.capacity = (uint32_t)fit;
    QUERY_TRY(mink__world_reserve(w, MINK_WB_QUERY_HITS, fit * sizeof(mink_world_hit), 0));
    QUERY_TRY(be->pass(w, MINK_PASS_QUERY, &s));
    if (hits == NULL) {
        hits = *out = malloc(fit * sizeof *hits);
        if (hits == NULL) {
            status = mink__fail(w->ctx, MINK_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
            goto fail;
        }
    }
    QUERY_TRY(be->read(w, MINK_WB_QUERY_HITS, 0, fit * sizeof(mink_world_hit) / 4, (uint32_t *)hits));
    name_bodies(w, hits, fit);
fail:
    if (status != MINK_OK && w->opencl) clFinish(w->ctx->queue);
    free(found);
    return status;
}

mink_status mink_world_cast(mink_world *w, const mink_world_query *queries, size_t count,
                            const mink_world_filter *filter, mink_world_hit *hits) {
    mink_status status = check(w, "mink_world_cast", queries, count, hits, 0, NULL, 0);
    return status == MINK_OK ? first_hits(w, queries, count, filter, hits) : status;
}

mink_status mink_world_cast_rays(mink_world *w, const mink_ray *rays, size_t count, const mink_world_filter *filter,
                                 mink_world_hit *hits) {
    mink_status status = check(w, "mink_world_cast_rays", rays, count, hits, 0, NULL, 0);
    if (status != MINK_OK || count == 0) return status;
    mink_world_query *q = mink__grow(NULL, count, sizeof *q);
    if (q == NULL) return mink__fail(w->ctx, MINK_ERR_OUT_OF_MEMORY, "mink_world_cast_rays: out of memory");
    for (size_t k = 0; k < count; k++)
        q[k] = (mink_world_query){rays[k].origin, rays[k].translation, MINK_QUERY_POINT, 0};
    status = first_hits(w, q, count, filter, hits);
    free(q);
    return status;
}

mink_status mink_world_cast_all(mink_world *w, const mink_world_query *queries, size_t count,
                                const mink_world_filter *filter, mink_world_hit *hits, size_t capacity,
                                size_t *starts) {
    mink_status status = check(w, "mink_world_cast_all", queries, count, hits, capacity, starts, 1);
    return status == MINK_OK ? all_hits(w, "mink_world_cast_all", queries, count, filter, hits, capacity, starts, NULL)
                             : status;
}

mink_status mink_world_overlap(mink_world *w, const mink_world_query *queries, size_t count,
                               const mink_world_filter *filter, uint32_t *bodies, size_t capacity, size_t *starts) {
    const char *fn = "mink_world_overlap";
    mink_status status = check(w, fn, queries, count, bodies, capacity, starts, 1);
    if (status != MINK_OK) return status;
    if (count == 0) {
        starts[0] = 0;
        return MINK_OK;
    }
    mink_world_hit *hits = NULL;
    mink_world_query *q = mink__grow(NULL, count, sizeof *q); /* where they stand: no translation */
    if (q == NULL) return mink__fail(w->ctx, MINK_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
    for (size_t k = 0; k < count; k++) {
        q[k] = queries[k];
        q[k].translation = mink_v2(0.0f, 0.0f);
    }
    status = all_hits(w, fn, q, count, filter, NULL, capacity, starts, &hits);
    for (size_t k = 0; status == MINK_OK && hits && k < count && starts[k + 1] <= capacity; k++)
        for (size_t h = starts[k]; h < starts[k + 1]; h++) bodies[h] = hits[h].body;
    free(hits);
    free(q);
    return status;
}

mink_status mink_world_check(mink_world *w, const uint32_t *handles, const mink_vec2 *translations, size_t count,
                             mink_world_move *moves) {
    const char *fn = "mink_world_check";
    mink_status status = check(w, fn, translations, count, moves, 0, NULL, 0);
    if (status != MINK_OK || count == 0) return status;
    const mink_world_backend *be = backend(w);
    uint32_t *slots = NULL;
    mink_world_query *q = NULL;
    mink_step_state s;
    QUERY_TRY(mink__world_take_slots(w, fn, handles, count, &slots));
    q = mink__grow(NULL, count, sizeof *q);
    if (q == NULL) {
        status = mink__fail(w->ctx, MINK_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
        goto fail;
    }
    /* Each move as a query of the body's own shape, its index where a query keeps 0: the move pass
     * reads the body's position on the device and meets every body but sensors, filtering each by
     * the mover's own category and mask. */
    for (size_t k = 0; k < count; k++) {
        uint32_t i = w->index_of[slots[k]];
        q[k] = (mink_world_query){mink_v2(0.0f, 0.0f), translations[k], w->shape_of[i], i};
    }
    QUERY_TRY(prepare(w, be, q, count, NULL, &s));
    QUERY_TRY(mink__world_reserve(w, MINK_WB_QUERY_MOVES, count * sizeof(mink_world_move), 0));
    s.query.mode = MINK_QUERY_MOVE;
    QUERY_TRY(be->pass(w, MINK_PASS_QUERY_MOVE, &s));
    QUERY_TRY(be->read(w, MINK_WB_QUERY_MOVES, 0, count * sizeof(mink_world_move) / 4, (uint32_t *)moves));
    for (size_t k = 0; k < count; k++) name_bodies(w, &moves[k].first, 1);
fail:
    if (status != MINK_OK && w->opencl) clFinish(w->ctx->queue);
    free(q);
    free(slots);
    return status;
}
