/* host/world.c — a world's life: creating, growing and destroying it, its grid, a step's checks, and
 * reading what a step left (positions, events, pairs). Bodies and shapes are world_bodies.c's. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "world_internal.h"

#define WORLD_DEFAULT_BODIES 1024u
#define WORLD_DEFAULT_ITERATIONS 4u
#define WORLD_DEFAULT_ROUNDS 8u

size_t mink__world_field_size(mink_world_buf field) {
    switch (field) {
    case MINK_WB_SHAPE_OF:
    case MINK_WB_SLOT_OF: return sizeof(uint32_t);
    case MINK_WB_PROPS: return sizeof(mink_body_props);
    case MINK_WB_IDS: return sizeof(uint64_t);
    case MINK_WB_POS:
    case MINK_WB_VEL: return sizeof(mink_vec2);
    default: return 0;
    }
}

mink_status mink__world_reserve(mink_world *w, mink_world_buf b, size_t bytes, size_t keep) {
    mink_world_array *a = &w->buf[b];
    if (a->bytes >= bytes) return MINK_OK;
    if (bytes < 64) bytes = 64;
    if (w->opencl) return mink__world_cl_reserve(w, b, bytes, keep);
    void *p = realloc(a->host, bytes);
    if (p == NULL)
        return mink__fail(w->ctx, MINK_ERR_OUT_OF_MEMORY, "mink_world: out of memory for %zu bytes", bytes);
    a->host = p;
    a->bytes = bytes;
    return MINK_OK;
}

void mink__world_release(mink_world *w, mink_world_buf b) {
    mink_world_array *a = &w->buf[b];
    free(a->host);
    if (a->mem) {
        clReleaseMemObject(a->mem);
        mink__world_cl_forget(w->ctx);
    }
    *a = (mink_world_array){0};
}

void *mink__grow(void *p, size_t n, size_t size) {
    return n > SIZE_MAX / size ? NULL : realloc(p, n * size);
}

/* Room for `need` slots in the host copies and the body arrays. */
mink_status mink__world_reserve_slots(mink_world *w, size_t need) {
    if (need <= w->capacity) return MINK_OK;
    if (need > MINK_WORLD_MAX_BODIES)
        return mink__fail(w->ctx, MINK_ERR_INVALID_ARGUMENT, "mink_world: %zu bodies is more than a world holds (%u)",
                          need, MINK_WORLD_MAX_BODIES);
    size_t cap = w->capacity ? w->capacity : WORLD_DEFAULT_BODIES;
    while (cap < need) cap *= 2;
    void *p;
    if ((p = mink__grow(w->alive, cap, 1)) == NULL) goto oom;
    w->alive = p;
    if ((p = mink__grow(w->free_slots, cap, sizeof *w->free_slots)) == NULL) goto oom;
    w->free_slots = p;
    if ((p = mink__grow(w->shape_of, cap, sizeof *w->shape_of)) == NULL) goto oom;
    w->shape_of = p;
    if ((p = mink__grow(w->props, cap, sizeof *w->props)) == NULL) goto oom;
    w->props = p;
    if ((p = mink__grow(w->ids, cap, sizeof *w->ids)) == NULL) goto oom;
    w->ids = p;
    if ((p = mink__grow(w->slot_of, cap, sizeof *w->slot_of)) == NULL) goto oom;
    w->slot_of = p;
    if ((p = mink__grow(w->index_of, cap, sizeof *w->index_of)) == NULL) goto oom;
    w->index_of = p;
    if ((p = mink__grow(w->gen, cap, sizeof *w->gen)) == NULL) goto oom;
    w->gen = p;
    if ((p = mink__grow(w->gen_then, cap, sizeof *w->gen_then)) == NULL) goto oom;
    w->gen_then = p;
    if ((p = mink__grow(w->gen_epoch, cap, sizeof *w->gen_epoch)) == NULL) goto oom;
    w->gen_epoch = p;
    for (mink_world_buf b = MINK_WB_SHAPE_OF; b <= MINK_WB_VEL; b++) {
        if (!w->opencl && b != MINK_WB_POS && b != MINK_WB_VEL) continue; /* the host copies serve */
        size_t size = mink__world_field_size(b);
        mink_status status = mink__world_reserve(w, b, cap * size, w->slots * size);
        if (status != MINK_OK) return status;
    }
    w->capacity = cap;
    return MINK_OK;
oom:
    return mink__fail(w->ctx, MINK_ERR_OUT_OF_MEMORY, "mink_world: out of memory for %zu bodies", cap);
}

mink_status mink_world_create(mink_context *ctx, const mink_world_desc *desc_in, mink_world **out) {
    if (mink__async_guard(ctx, "mink_world_create") != MINK_OK) return MINK_ERR_INVALID_ARGUMENT;
    if (out == NULL) return mink__fail(ctx, MINK_ERR_INVALID_ARGUMENT, "mink_world_create: out is NULL");
    *out = NULL;
    if (ctx == NULL) return mink__fail(NULL, MINK_ERR_INVALID_ARGUMENT, "mink_world_create: ctx is NULL");
    mink_world_desc desc = {0};
    if (desc_in) desc = *desc_in;
    if (!isfinite(desc.skin) || desc.skin < 0.0f)
        return mink__fail(ctx, MINK_ERR_INVALID_ARGUMENT, "mink_world_create: skin must be finite and >= 0, not %g",
                          (double)desc.skin);
    if (ctx->backend == MINK_BACKEND_OPENCL) { /* the world's passes, built and checked at a context's first world */
        mink_status built = mink__world_cl_build(ctx, MINK_PART_WORLD);
        if (built != MINK_OK) return built;
    }
    mink_world *w = calloc(1, sizeof *w);
    if (w == NULL) return mink__fail(ctx, MINK_ERR_OUT_OF_MEMORY, "mink_world_create: out of memory");
    w->ctx = ctx;
    w->opencl = ctx->backend == MINK_BACKEND_OPENCL;
    w->max_pairs = desc.max_pairs; /* 0: per step, from the bodies (world_step.c) */
    if (w->max_pairs > (size_t)UINT32_MAX / 2) w->max_pairs = (size_t)UINT32_MAX / 2; /* pair << 1 fits */
    w->params.skin = desc.skin;
    w->crowd[2] = MINK_GRID_NO_CROWD;
    w->crowd_single = -1; /* not counted yet */
    w->x_sorted[0] = w->x_sorted[1] = 1; /* until a scan says it is sparse */
    w->params.iterations = desc.max_iterations ? desc.max_iterations : WORLD_DEFAULT_ITERATIONS;
    w->rounds = desc.max_rounds ? desc.max_rounds : WORLD_DEFAULT_ROUNDS;
    size_t initial = desc.initial_bodies ? desc.initial_bodies : WORLD_DEFAULT_BODIES;
    mink_status status = mink__world_reserve_slots(w, initial);
    if (status == MINK_OK) status = mink__world_reserve(w, MINK_WB_EVENT_COUNT, sizeof(uint32_t), 0);
    if (status != MINK_OK) {
        mink_world_destroy(w);
        return status;
    }
    *out = w;
    return MINK_OK;
}

void mink_world_destroy(mink_world *w) {
    if (w == NULL) return;
    mink__async_settle(w->ctx); /* a submitted step of this world, or a batch, ends first */
    for (int b = 0; b < MINK_WB_COUNT; b++) {
        free(w->buf[b].host);
        if (w->buf[b].mem) clReleaseMemObject(w->buf[b].mem);
    }
    if (w->opencl) mink__world_cl_forget(w->ctx);
    free(w->alive);
    free(w->free_slots);
    free(w->shapes);
    free(w->shape_of);
    free(w->props);
    free(w->ids);
    free(w->slot_of);
    free(w->index_of);
    free(w->gen);
    free(w->gen_then);
    free(w->gen_epoch);
    free(w);
}

/* ---- the grid --------------------------------------------------------------------------------------- */

/* Cells of a power of two twice the size three boxes in four stay below, so those cover one or two
 * cells a side, most of them one (cells the size itself gave about 45% more entries, and a step at
 * 10^5 bodies took 30% longer; bench_world). The world's extent plays no part: cells hash into
 * buckets (mink_grid_bucket), whose number mink__world_grid_buckets sets once entries are counted. */
int mink__world_grid(const mink_world *world, const uint32_t *m, mink_grid *g) {
    if (m[0] == 0xffffffffu) return 0;
    uint64_t total = 0, run = 0;
    for (uint32_t c = 0; c < 128; c++) total += m[4 + c];
    int c = 0;
    for (; c < 127; c++) {
        run += m[4 + c];
        if (run * 4 >= total * 3) break;
    }
    int e = c - 64 + 1; /* three boxes in four: the larger side below 2^(e - 1) */
    g->inv_cell = ldexpf(1.0f, -e);
    g->buckets = MINK_GRID_MIN_BUCKETS;
    g->x_bits = 0;
    g->crowd_single = 0;
    g->crowd_category = world->crowd[0];
    g->crowd_mask = world->crowd[1];
    g->crowd_flags = world->crowd[2];
    return 1;
}

/* Buckets: the next power of two at or above the entries (at least MINK_GRID_MIN_BUCKETS), so a
 * bucket holds about one cell's entries; with x_sorted, up to 8 bits of where each entry's box
 * starts below them (mink_grid.x_bits: what 32-bit keys leave room for); *passes: the radix passes
 * the keys need, up to the large bodies' key. 0 when the entries are too many for 32-bit keys. */
int mink__world_grid_buckets(mink_grid *g, uint32_t entries, int x_sorted, uint32_t *passes) {
    if (entries > (1u << 30)) return 0;
    uint32_t b = MINK_GRID_MIN_BUCKETS, bits = 21;
    while (b < entries) b <<= 1, bits++;
    g->buckets = b;
    /* The bucket, the crowd bit and the slice in 31 bits at most: the large key, one above the
     * last bucket's, then still fits in 32. */
    g->x_bits = x_sorted ? (30 - bits < 8 ? 30 - bits : 8) : 0;
    uint64_t most = (uint64_t)b * 2 << g->x_bits; /* the large bodies' key (core/broadphase.h) */
    *passes = most < (1u << 8) ? 1 : most < (1u << 16) ? 2 : most < (1u << 24) ? 3 : 4;
    return 1;
}

/* ---- stepping and reading ------------------------------------------------------------------------ */

/* After a failed update (w->dirty) the device gets the host's tables whole: they are always current. */
mink_status mink__world_resync(mink_world *w) {
    if (!w->dirty) return MINK_OK;
    mink_status status = MINK_OK;
    for (mink_world_buf f = MINK_WB_SHAPE_OF; f <= MINK_WB_SLOT_OF; f++) {
        const void *src = f == MINK_WB_SHAPE_OF ? (const void *)w->shape_of
                          : f == MINK_WB_PROPS  ? (const void *)w->props
                          : f == MINK_WB_IDS    ? (const void *)w->ids
                                                : (const void *)w->slot_of;
        size_t bytes = w->slots * mink__world_field_size(f);
        if (bytes == 0) continue;
        MINK_CL_TRY(w->ctx, clEnqueueWriteBuffer(w->ctx->queue, w->buf[f].mem, CL_TRUE, 0, bytes, src, 0, NULL, NULL),
                    fail);
    }
    w->dirty = 0;
fail:
    return status;
}

mink_status mink_world_step(mink_world *w, float dt) {
    if (w == NULL) return mink__fail(NULL, MINK_ERR_INVALID_ARGUMENT, "mink_world_step: world is NULL");
    if (mink__async_guard(w->ctx, "mink_world_step") != MINK_OK) return MINK_ERR_INVALID_ARGUMENT;
    if (!isfinite(dt) || dt < 0.0f)
        return mink__fail(w->ctx, MINK_ERR_INVALID_ARGUMENT, "mink_world_step: dt must be finite and >= 0, not %g",
                          (double)dt);
    w->params.dt = dt;
    w->query_grid.valid = 0; /* the step writes over the grid, and moves the bodies */
    w->epoch++; /* this step's events and pairs will name the bodies alive now */
    double t0 = mink__now_ms();
    mink_world_stats st = {0};
    w->stats = st;
    mink_status status = mink__world_resync(w);
    if (status == MINK_OK) status = mink__world_step_run(w);
    if (status != MINK_OK) w->events = w->pairs = 0; /* a failed step met nothing */
    w->stats.total_ms = mink__now_ms() - t0;
    /* The host copies, and the arrays (on OpenCL, device buffers). */
    w->stats.bytes = w->capacity * (sizeof *w->alive + sizeof *w->free_slots + sizeof *w->shape_of +
                                    sizeof *w->props + sizeof *w->ids + sizeof *w->slot_of + sizeof *w->index_of) +
                     w->shape_capacity * sizeof *w->shapes;
    for (int b = 0; b < MINK_WB_COUNT; b++) w->stats.bytes += w->buf[b].bytes;
    return status;
}

mink_status mink_world_get(mink_world *w, const uint32_t *handles, size_t count, mink_vec2 *positions,
                           mink_vec2 *velocities) {
    if (w == NULL) return mink__fail(NULL, MINK_ERR_INVALID_ARGUMENT, "mink_world_get: world is NULL");
    if (mink__async_guard(w->ctx, "mink_world_get") != MINK_OK) return MINK_ERR_INVALID_ARGUMENT;
    uint32_t *slots = NULL;
    if (handles) {
        mink_status status = mink__world_take_slots(w, "mink_world_get", handles, count, &slots);
        if (status != MINK_OK) return status;
    } else if (count > w->slots) {
        return mink__fail(w->ctx, MINK_ERR_INVALID_ARGUMENT, "mink_world_get: count %zu is more than the %zu slots",
                          count, w->slots);
    } else if (w->renumbered && count > 0) { /* slots 0 .. count-1, wherever they sit */
        slots = malloc(count * sizeof *slots);
        if (slots == NULL) return mink__fail(w->ctx, MINK_ERR_OUT_OF_MEMORY, "mink_world_get: out of memory");
        for (size_t k = 0; k < count; k++) slots[k] = (uint32_t)k;
    }
    if (slots)
        for (size_t k = 0; k < count; k++) slots[k] = w->index_of[slots[k]]; /* where each sits */
    mink_status status = MINK_OK;
    for (int f = 0; f < 2 && status == MINK_OK; f++) {
        mink_vec2 *out = f == 0 ? positions : velocities;
        mink_world_buf b = f == 0 ? MINK_WB_POS : MINK_WB_VEL;
        if (out == NULL || count == 0) continue;
        if (w->opencl) {
            status = mink__world_cl_read(w, b, slots, count, out);
        } else {
            const mink_vec2 *src = w->buf[b].host;
            for (size_t k = 0; k < count; k++) out[k] = src[slots ? slots[k] : k];
        }
    }
    free(slots);
    return status;
}

/* Events in a total order, so both paths (and any device's thread schedule) list the same. */
static int event_order(const void *pa, const void *pb) {
    const mink_event *a = pa, *b = pb;
    if (a->t != b->t) return a->t < b->t ? -1 : 1;
    if (a->a != b->a) return a->a < b->a ? -1 : 1;
    if (a->b != b->b) return a->b < b->b ? -1 : 1;
    if (a->body_a != b->body_a) return a->body_a < b->body_a ? -1 : 1;
    if (a->body_b != b->body_b) return a->body_b < b->body_b ? -1 : 1;
    return a->iteration < b->iteration ? -1 : a->iteration > b->iteration;
}

/* What the two list readers check: a world, somewhere for the count, an array for capacity > 0. */
static mink_status check_read(mink_world *w, const char *fn, const void *out, size_t capacity, const size_t *count) {
    if (w != NULL && mink__async_guard(w->ctx, fn) != MINK_OK) return MINK_ERR_INVALID_ARGUMENT;
    if (w == NULL || count == NULL)
        return mink__fail(w ? w->ctx : NULL, MINK_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn,
                          w == NULL ? "world" : "count");
    if (capacity > 0 && out == NULL)
        return mink__fail(w->ctx, MINK_ERR_INVALID_ARGUMENT, "%s: out is NULL with capacity %zu", fn, capacity);
    return MINK_OK;
}

mink_status mink_world_events(mink_world *w, mink_event *out, size_t capacity, size_t *count) {
    mink_status status = check_read(w, "mink_world_events", out, capacity, count);
    if (status != MINK_OK) return status;
    *count = w->events;
    if (capacity == 0 || w->events == 0) return MINK_OK;
    /* All of them, to sort; then the first `capacity`. */
    mink_event *all = malloc(w->events * sizeof *all);
    if (all == NULL) return mink__fail(w->ctx, MINK_ERR_OUT_OF_MEMORY, "mink_world_events: out of memory");
    if (w->opencl) status = mink__world_cl_read_array(w, MINK_WB_EVENTS, w->events * sizeof *all, all);
    else memcpy(all, w->buf[MINK_WB_EVENTS].host, w->events * sizeof *all);
    if (status == MINK_OK) {
        for (size_t k = 0; k < w->events; k++) { /* the step names indices; the user, handles */
            all[k].body_a = mink__world_handle_then(w, mink__world_slot_at(w, all[k].body_a));
            all[k].body_b = mink__world_handle_then(w, mink__world_slot_at(w, all[k].body_b));
        }
        qsort(all, w->events, sizeof *all, event_order);
        memcpy(out, all, (capacity < w->events ? capacity : w->events) * sizeof *all);
    }
    free(all);
    return status;
}

mink_status mink_world_pairs(mink_world *w, mink_world_pair *out, size_t capacity, size_t *count) {
    mink_status status = check_read(w, "mink_world_pairs", out, capacity, count);
    if (status != MINK_OK) return status;
    *count = w->pairs;
    size_t n = capacity < w->pairs ? capacity : w->pairs;
    if (n == 0) return MINK_OK;
    if (w->opencl) status = mink__world_cl_read_array(w, MINK_WB_PAIRS, n * sizeof *out, out);
    else memcpy(out, w->buf[MINK_WB_PAIRS].host, n * sizeof *out);
    for (size_t k = 0; status == MINK_OK && k < n; k++) {
        out[k].a = mink__world_handle_then(w, mink__world_slot_at(w, out[k].a));
        out[k].b = mink__world_handle_then(w, mink__world_slot_at(w, out[k].b));
    }
    return status;
}

mink_world_stats mink_world_get_stats(const mink_world *w) {
    mink_world_stats st = {0};
    if (w == NULL || w->ctx->async.pending) return st; /* a submitted call may be writing them */
    st = w->stats;
    st.bodies = w->alive_count; /* these two are always now, not the last step's */
    st.slots = w->slots;
    return st;
}
