/* host/world.c — the world's API: checks, slots, the shape table, and the calls into a backend. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "world_internal.h"

#define WORLD_DEFAULT_BODIES 1024u
#define WORLD_DEFAULT_ITERATIONS 4u
#define GEN_MAX ((1u << (32u - MINK_WORLD_SLOT_BITS)) - 1u) /* a slot at this generation is retired */

_Static_assert(MINK_WORLD_MAX_BODIES == 1u << MINK_WORLD_SLOT_BITS, "a handle's slot bits hold every slot");

size_t mink__world_field_size(mink_world_buf field) {
    switch (field) {
    case MINK_WB_SHAPE_OF: return sizeof(uint32_t);
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

static void *grow(void *p, size_t n, size_t size) {
    return n > SIZE_MAX / size ? NULL : realloc(p, n * size);
}

/* Room for `need` slots in the host copies and the body arrays. */
static mink_status reserve_slots(mink_world *w, size_t need) {
    if (need <= w->capacity) return MINK_OK;
    if (need > MINK_WORLD_MAX_BODIES)
        return mink__fail(w->ctx, MINK_ERR_INVALID_ARGUMENT, "mink_world: %zu bodies is more than a world holds (%u)",
                          need, MINK_WORLD_MAX_BODIES);
    size_t cap = w->capacity ? w->capacity : WORLD_DEFAULT_BODIES;
    while (cap < need) cap *= 2;
    void *p;
    if ((p = grow(w->alive, cap, 1)) == NULL) goto oom;
    w->alive = p;
    if ((p = grow(w->free_slots, cap, sizeof *w->free_slots)) == NULL) goto oom;
    w->free_slots = p;
    if ((p = grow(w->shape_of, cap, sizeof *w->shape_of)) == NULL) goto oom;
    w->shape_of = p;
    if ((p = grow(w->props, cap, sizeof *w->props)) == NULL) goto oom;
    w->props = p;
    if ((p = grow(w->ids, cap, sizeof *w->ids)) == NULL) goto oom;
    w->ids = p;
    if ((p = grow(w->gen, cap, sizeof *w->gen)) == NULL) goto oom;
    w->gen = p;
    if ((p = grow(w->gen_then, cap, sizeof *w->gen_then)) == NULL) goto oom;
    w->gen_then = p;
    if ((p = grow(w->gen_epoch, cap, sizeof *w->gen_epoch)) == NULL) goto oom;
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
    if (out == NULL) return mink__fail(ctx, MINK_ERR_INVALID_ARGUMENT, "mink_world_create: out is NULL");
    *out = NULL;
    if (ctx == NULL) return mink__fail(NULL, MINK_ERR_INVALID_ARGUMENT, "mink_world_create: ctx is NULL");
    mink_world_desc desc = {0};
    if (desc_in) desc = *desc_in;
    if (!isfinite(desc.skin) || desc.skin < 0.0f)
        return mink__fail(ctx, MINK_ERR_INVALID_ARGUMENT, "mink_world_create: skin must be finite and >= 0, not %g",
                          (double)desc.skin);
    if (ctx->backend == MINK_BACKEND_OPENCL && !ctx->world_layout_checked) {
        const cl_uint sizes[6] = {sizeof(mink_shape), sizeof(mink_body_props), sizeof(mink_event),
                                  sizeof(mink_world_pair), sizeof(mink_grid_entry), sizeof(mink_contact)};
        mink_status status = mink__check_layout(ctx, MINK_KERNEL_WORLD_LAYOUT, sizes, 6);
        if (status != MINK_OK) return status;
        ctx->world_layout_checked = 1;
    }
    mink_world *w = calloc(1, sizeof *w);
    if (w == NULL) return mink__fail(ctx, MINK_ERR_OUT_OF_MEMORY, "mink_world_create: out of memory");
    w->ctx = ctx;
    w->opencl = ctx->backend == MINK_BACKEND_OPENCL;
    w->max_pairs = desc.max_pairs ? desc.max_pairs : (size_t)UINT32_MAX / 2;
    if (w->max_pairs > (size_t)UINT32_MAX / 2) w->max_pairs = (size_t)UINT32_MAX / 2; /* pair << 1 fits */
    w->params.skin = desc.skin;
    w->crowd[2] = MINK_GRID_NO_CROWD;
    w->params.iterations = desc.max_iterations ? desc.max_iterations : WORLD_DEFAULT_ITERATIONS;
    mink_status status = reserve_slots(w, desc.initial_bodies ? desc.initial_bodies : WORLD_DEFAULT_BODIES);
    if (status == MINK_OK) status = mink__world_reserve(w, MINK_WB_COUNTER, sizeof(uint32_t), 0);
    if (status != MINK_OK) {
        mink_world_destroy(w);
        return status;
    }
    *out = w;
    return MINK_OK;
}

void mink_world_destroy(mink_world *w) {
    if (w == NULL) return;
    for (int b = 0; b < MINK_WB_COUNT; b++) {
        free(w->buf[b].host);
        if (w->buf[b].mem) clReleaseMemObject(w->buf[b].mem);
    }
    free(w->alive);
    free(w->free_slots);
    free(w->shapes);
    free(w->shape_of);
    free(w->props);
    free(w->ids);
    free(w->gen);
    free(w->gen_then);
    free(w->gen_epoch);
    free(w);
}

/* ---- shapes -------------------------------------------------------------------------------------- */

/* Shape s with every byte past its member zeroed (the union is as large as a polygon), so the
 * table sent to the device holds no stale bytes of the caller's. */
static mink_shape defined_shape(const mink_shape *s) {
    mink_shape d;
    memset(&d, 0, sizeof d);
    d.type = s->type;
    if (s->type == MINK_SHAPE_AABB)
        d.geom.aabb = s->geom.aabb;
    else if (s->type == MINK_SHAPE_CIRCLE)
        d.geom.circle = s->geom.circle;
    else
        d.geom.polygon = s->geom.polygon;
    return d;
}

mink_status mink_world_add_shapes(mink_world *w, const mink_shape *shapes, size_t count, uint32_t *ids) {
    if (w == NULL) return mink__fail(NULL, MINK_ERR_INVALID_ARGUMENT, "mink_world_add_shapes: world is NULL");
    if (count > 0 && (shapes == NULL || ids == NULL))
        return mink__fail(w->ctx, MINK_ERR_INVALID_ARGUMENT, "mink_world_add_shapes: %s is NULL with count %zu",
                          shapes == NULL ? "shapes" : "ids", count);
    if (count > UINT32_MAX - 1 - w->shape_count)
        return mink__fail(w->ctx, MINK_ERR_INVALID_ARGUMENT, "mink_world_add_shapes: too many shapes");
    for (size_t k = 0; k < count; k++) {
        mink_shape s = shapes[k];
        if (s.type == MINK_SHAPE_POLYGON && (s.geom.polygon.angle != 0.0f || !mink__polygon_is_valid(s.geom.polygon)))
            return mink__fail(w->ctx, MINK_ERR_INVALID_ARGUMENT,
                              "mink_world_add_shapes: shape %zu is not a valid polygon at angle 0 "
                              "(make it with mink_polygon_make)", k);
        if (!mink__body_is_valid(mink_shape_place(&s, mink_v2(0.0f, 0.0f), mink_v2(0.0f, 0.0f))))
            return mink__fail(w->ctx, MINK_ERR_INVALID_ARGUMENT,
                              "mink_world_add_shapes: shape %zu (type %u) is not valid", k, (unsigned)s.type);
    }
    size_t need = w->shape_count + count;
    if (need > w->shape_capacity) {
        size_t cap = w->shape_capacity ? w->shape_capacity * 2 : 16;
        while (cap < need) cap *= 2;
        mink_shape *p = grow(w->shapes, cap, sizeof *p);
        if (p == NULL) return mink__fail(w->ctx, MINK_ERR_OUT_OF_MEMORY, "mink_world_add_shapes: out of memory");
        w->shapes = p;
        w->shape_capacity = cap;
    }
    mink_status status = MINK_OK;
    if (w->opencl) status = mink__world_reserve(w, MINK_WB_SHAPES, w->shape_capacity * sizeof(mink_shape), 0);
    if (status != MINK_OK) return status;
    for (size_t k = 0; k < count; k++) {
        w->shapes[w->shape_count + k] = defined_shape(&shapes[k]);
        ids[k] = (uint32_t)(w->shape_count + k);
    }
    if (w->opencl)
        MINK_CL_TRY(w->ctx, clEnqueueWriteBuffer(w->ctx->queue, w->buf[MINK_WB_SHAPES].mem, CL_TRUE, 0,
                                                 need * sizeof(mink_shape), w->shapes, 0, NULL, NULL), fail);
    /* Only now: a failed write adds no shape. The scalar step reads the host table. */
    for (size_t k = 0; k < count; k++) w->params.polygons |= shapes[k].type == MINK_SHAPE_POLYGON;
    w->shape_count = need;
fail:
    return status;
}

/* ---- handles ------------------------------------------------------------------------------------- */

static uint32_t handle_of(const mink_world *w, uint32_t slot) {
    return slot | (uint32_t)w->gen[slot] << MINK_WORLD_SLOT_BITS;
}

/* A slot's handle as the last step saw it (its events and pairs): a removal since then has moved
 * the generation on. */
static uint32_t handle_then(const mink_world *w, uint32_t slot) {
    if (slot >= w->slots) return slot;
    uint32_t g = w->gen_epoch[slot] == w->epoch ? w->gen_then[slot] : w->gen[slot];
    return slot | g << MINK_WORLD_SLOT_BITS;
}

/* Every handle alive and named once; their slots in a new array (*out, to free), in order. */
static mink_status take_slots(mink_world *w, const char *fn, const uint32_t *handles, size_t count, uint32_t **out) {
    *out = NULL;
    if (count > 0 && handles == NULL)
        return mink__fail(w->ctx, MINK_ERR_INVALID_ARGUMENT, "%s: handles is NULL with count %zu", fn, count);
    uint32_t *slots = malloc((count ? count : 1) * sizeof *slots);
    if (slots == NULL) return mink__fail(w->ctx, MINK_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
    size_t k = 0;
    const char *why = NULL;
    for (; k < count; k++) {
        uint32_t h = handles[k], s = mink_world_slot(h);
        if (s >= w->slots) why = "not a handle of this world";
        else if (w->alive[s] == 2 && handle_of(w, s) == h) why = "named twice";
        else if (w->alive[s] == 0 || handle_of(w, s) != h) why = "a removed body's";
        if (why) break;
        w->alive[s] = 2; /* seen */
        slots[k] = s;
    }
    for (size_t m = 0; m < k; m++) w->alive[slots[m]] = 1;
    if (why) {
        free(slots);
        return mink__fail(w->ctx, MINK_ERR_INVALID_ARGUMENT, "%s: handle %#x (entry %zu) is %s", fn,
                          (unsigned)handles[k], k, why);
    }
    *out = slots;
    return MINK_OK;
}

/* ---- bodies -------------------------------------------------------------------------------------- */

/* Checks every given field of every entry; names the first bad one. */
static mink_status check_bodies(mink_world *w, const char *fn, const mink_world_bodies *b) {
    for (size_t k = 0; k < b->count; k++) {
        const char *bad = NULL;
        if (b->shape && b->shape[k] >= w->shape_count) bad = "shape is not an id from mink_world_add_shapes";
        else if (b->position && !mink__vec2_is_valid(b->position[k])) bad = "position is not finite";
        else if (b->velocity && !mink__vec2_is_valid(b->velocity[k])) bad = "velocity is not finite";
        else if (b->inv_mass && !(isfinite(b->inv_mass[k]) && b->inv_mass[k] >= 0.0f)) bad = "inv_mass must be finite and >= 0";
        else if (b->restitution && !(b->restitution[k] >= 0.0f && b->restitution[k] <= 1.0f))
            bad = "restitution must be in [0, 1]";
        else if (b->response && b->response[k] >= MINK_RESPONSE_COUNT) bad = "response is not a mink_response";
        if (bad) return mink__fail(w->ctx, MINK_ERR_INVALID_ARGUMENT, "%s: body %zu: %s", fn, k, bad);
    }
    return MINK_OK;
}

/* One vote for the grid's crowd: a body whose filter never meets itself. */
static void vote_crowd(mink_world *w, mink_body_props p) {
    uint32_t flags = mink_contact_flags(p);
    if (mink_filters_meet(p.category, p.mask, flags, p.category, p.mask, flags)) return;
    int same = w->crowd[0] == p.category && w->crowd[1] == p.mask && w->crowd[2] == flags;
    if (same) {
        w->crowd_votes++;
    } else if (w->crowd_votes == 0) {
        w->crowd[0] = p.category;
        w->crowd[1] = p.mask;
        w->crowd[2] = flags;
        w->crowd_votes = 1;
    } else {
        w->crowd_votes--;
    }
}

/* Writes the given fields of bodies to the slots; on OpenCL through the device's scatter. */
static mink_status write_bodies(mink_world *w, const uint32_t *slots, const mink_world_bodies *b, int fresh) {
    size_t n = b->count;
    for (size_t k = 0; k < n; k++) {
        uint32_t s = slots[k];
        if (b->shape) w->shape_of[s] = b->shape[k];
        if (b->user_id) w->ids[s] = b->user_id[k];
        else if (fresh) w->ids[s] = handle_of(w, s);
        mink_body_props p = w->props[s];
        if (fresh) {
            p.inv_mass = 1.0f;
            p.restitution = 1.0f;
            p.response = MINK_RESPONSE_SLIDE;
            p.category = 1u;
            p.mask = 0xffffffffu;
        }
        if (b->inv_mass) p.inv_mass = b->inv_mass[k];
        if (b->restitution) p.restitution = b->restitution[k];
        if (b->response) p.response = b->response[k];
        if (b->category) p.category = b->category[k];
        if (b->mask) p.mask = b->mask[k];
        w->props[s] = p;
        vote_crowd(w, p);
    }
    /* Positions and velocities live only in the body arrays; a new body's default is zero. */
    mink_vec2 *zeros = NULL;
    const mink_vec2 *pos = b->position, *vel = b->velocity;
    if (fresh && (pos == NULL || vel == NULL)) {
        zeros = calloc(n ? n : 1, sizeof *zeros);
        if (zeros == NULL) return mink__fail(w->ctx, MINK_ERR_OUT_OF_MEMORY, "mink_world: out of memory");
        if (pos == NULL) pos = zeros;
        if (vel == NULL) vel = zeros;
    }
    mink_status status = MINK_OK;
    if (!w->opencl) {
        mink_vec2 *hp = w->buf[MINK_WB_POS].host, *hv = w->buf[MINK_WB_VEL].host;
        for (size_t k = 0; k < n; k++) {
            if (pos) hp[slots[k]] = pos[k];
            if (vel) hv[slots[k]] = vel[k];
        }
    } else {
        /* Gather the host copies' new values in handle order, then scatter them on the device. */
        size_t most = sizeof(mink_body_props);
        char *vals = malloc((n ? n : 1) * most);
        if (vals == NULL) status = mink__fail(w->ctx, MINK_ERR_OUT_OF_MEMORY, "mink_world: out of memory");
        for (mink_world_buf f = MINK_WB_SHAPE_OF; status == MINK_OK && f <= MINK_WB_IDS; f++) {
            size_t size = mink__world_field_size(f);
            const char *src = f == MINK_WB_SHAPE_OF ? (const char *)w->shape_of
                              : f == MINK_WB_PROPS  ? (const char *)w->props
                                                    : (const char *)w->ids;
            for (size_t k = 0; k < n; k++) memcpy(vals + k * size, src + (size_t)slots[k] * size, size);
            status = mink__world_cl_write(w, f, slots, n, vals);
        }
        free(vals);
        if (status == MINK_OK && pos) status = mink__world_cl_write(w, MINK_WB_POS, slots, n, pos);
        if (status == MINK_OK && vel) status = mink__world_cl_write(w, MINK_WB_VEL, slots, n, vel);
    }
    free(zeros);
    return status;
}

mink_status mink_world_add(mink_world *w, const mink_world_bodies *b, uint32_t *handles) {
    if (w == NULL) return mink__fail(NULL, MINK_ERR_INVALID_ARGUMENT, "mink_world_add: world is NULL");
    if (b == NULL) return mink__fail(w->ctx, MINK_ERR_INVALID_ARGUMENT, "mink_world_add: bodies is NULL");
    if (b->count == 0) return MINK_OK;
    if (handles == NULL || b->shape == NULL)
        return mink__fail(w->ctx, MINK_ERR_INVALID_ARGUMENT, "mink_world_add: %s is NULL with count %zu",
                          handles == NULL ? "handles" : "bodies->shape", b->count);
    if (b->count > MINK_WORLD_MAX_BODIES - w->alive_count)
        return mink__fail(w->ctx, MINK_ERR_INVALID_ARGUMENT, "mink_world_add: %zu bodies is more than a world holds",
                          b->count);
    mink_status status = check_bodies(w, "mink_world_add", b);
    if (status != MINK_OK) return status;
    size_t reused = b->count < w->free_count ? b->count : w->free_count;
    size_t slots = w->slots + (b->count - reused);
    status = reserve_slots(w, slots);
    uint32_t *taken = status == MINK_OK ? malloc(b->count * sizeof *taken) : NULL;
    if (status == MINK_OK && taken == NULL)
        status = mink__fail(w->ctx, MINK_ERR_OUT_OF_MEMORY, "mink_world_add: out of memory");
    if (status != MINK_OK) return status;
    size_t old_slots = w->slots, old_free = w->free_count;
    for (size_t k = 0; k < b->count; k++)
        taken[k] = k < reused ? w->free_slots[--w->free_count] : (uint32_t)(w->slots + (k - reused));
    for (size_t s = w->slots; s < slots; s++) w->gen[s] = 0, w->gen_epoch[s] = 0; /* new slots */
    w->slots = slots;
    for (size_t k = 0; k < b->count; k++) w->alive[taken[k]] = 1;
    w->alive_count += b->count;
    status = write_bodies(w, taken, b, 1);
    if (status == MINK_OK) { /* the handles last: `handles` may be one of the inputs */
        for (size_t k = 0; k < b->count; k++) handles[k] = handle_of(w, taken[k]);
    } else { /* the device failed part way: add nothing (popping left the free list's entries) */
        for (size_t k = 0; k < b->count; k++) {
            w->alive[taken[k]] = 0;
            w->shape_of[taken[k]] = MINK_WORLD_DEAD;
        }
        w->alive_count -= b->count;
        w->slots = old_slots;
        w->free_count = old_free;
        w->dirty = w->opencl;
    }
    free(taken);
    return status;
}

/* Changes the given fields of the bodies in slots (taken from handles). */
static mink_status set_slots(mink_world *w, const uint32_t *slots, const mink_world_bodies *b) {
    if (!w->opencl) return write_bodies(w, slots, b, 0);
    /* Keep the host fields it changes: a device failure part way puts them back. */
    size_t n = b->count;
    mink_status status = MINK_OK;
    uint32_t *old_shape = malloc(n * sizeof *old_shape);
    mink_body_props *old_props = malloc(n * sizeof *old_props);
    uint64_t *old_ids = malloc(n * sizeof *old_ids);
    if (old_shape == NULL || old_props == NULL || old_ids == NULL) {
        status = mink__fail(w->ctx, MINK_ERR_OUT_OF_MEMORY, "mink_world_set: out of memory");
    } else {
        for (size_t k = 0; k < n; k++) {
            old_shape[k] = w->shape_of[slots[k]];
            old_props[k] = w->props[slots[k]];
            old_ids[k] = w->ids[slots[k]];
        }
        status = write_bodies(w, slots, b, 0);
        if (status != MINK_OK) {
            for (size_t k = 0; k < n; k++) {
                w->shape_of[slots[k]] = old_shape[k];
                w->props[slots[k]] = old_props[k];
                w->ids[slots[k]] = old_ids[k];
            }
            w->dirty = 1;
        }
    }
    free(old_shape);
    free(old_props);
    free(old_ids);
    return status;
}

mink_status mink_world_set(mink_world *w, const uint32_t *handles, const mink_world_bodies *b) {
    if (w == NULL) return mink__fail(NULL, MINK_ERR_INVALID_ARGUMENT, "mink_world_set: world is NULL");
    if (b == NULL) return mink__fail(w->ctx, MINK_ERR_INVALID_ARGUMENT, "mink_world_set: bodies is NULL");
    uint32_t *slots = NULL;
    mink_status status = take_slots(w, "mink_world_set", handles, b->count, &slots);
    if (status == MINK_OK) status = check_bodies(w, "mink_world_set", b);
    if (status == MINK_OK && b->count > 0) status = set_slots(w, slots, b);
    free(slots);
    return status;
}

/* Removes the bodies in slots: each slot's generation moves on (the epoch keeps the last step's),
 * and the slot is free again unless its generation is spent. */
static mink_status remove_slots(mink_world *w, const uint32_t *slots, size_t count) {
    uint32_t *old_shape = w->opencl ? malloc(count * sizeof *old_shape) : NULL;
    if (w->opencl && old_shape == NULL)
        return mink__fail(w->ctx, MINK_ERR_OUT_OF_MEMORY, "mink_world_remove: out of memory");
    size_t old_free = w->free_count;
    for (size_t k = 0; k < count; k++) {
        uint32_t s = slots[k];
        if (old_shape) old_shape[k] = w->shape_of[s];
        w->alive[s] = 0;
        w->shape_of[s] = MINK_WORLD_DEAD;
        if (w->gen_epoch[s] != w->epoch) w->gen_then[s] = w->gen[s], w->gen_epoch[s] = w->epoch;
        if (++w->gen[s] < GEN_MAX) w->free_slots[w->free_count++] = s;
    }
    w->alive_count -= count;
    mink_world_bodies dead = {.count = count, .shape = NULL};
    /* Only shape_of changes: write_bodies copies the host fields across. */
    mink_status status = write_bodies(w, slots, &dead, 0);
    if (status != MINK_OK) { /* the device failed part way: remove nothing */
        for (size_t k = 0; k < count; k++) {
            w->alive[slots[k]] = 1;
            w->shape_of[slots[k]] = old_shape[k];
            w->gen[slots[k]]--;
        }
        w->alive_count += count;
        w->free_count = old_free;
        w->dirty = 1;
    }
    free(old_shape);
    return status;
}

mink_status mink_world_remove(mink_world *w, const uint32_t *handles, size_t count) {
    if (w == NULL) return mink__fail(NULL, MINK_ERR_INVALID_ARGUMENT, "mink_world_remove: world is NULL");
    uint32_t *slots = NULL;
    mink_status status = take_slots(w, "mink_world_remove", handles, count, &slots);
    if (status == MINK_OK && count > 0) status = remove_slots(w, slots, count);
    free(slots);
    return status;
}

/* ---- the grid --------------------------------------------------------------------------------------- */

static float from_key(uint32_t k) {
    uint32_t u = (k & 0x80000000u) ? (k & 0x7fffffffu) : ~k;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Cells of a power of two twice the size three boxes in four stay below, so those cover one or two
 * cells a side, most of them one (cells the size itself gave about 45% more entries, and a step at
 * 10^5 bodies took 30% longer; bench_world), grown until the grid is at most 46340 cells a side
 * (so a key, the cell × 2 + the crowd bit, fits 32 bits). */
int mink__world_grid(const mink_world *world, const uint32_t *m, mink_grid *g, uint32_t *passes) {
    if (m[0] == 0xffffffffu) return 0;
    uint64_t total = 0, run = 0;
    for (uint32_t c = 0; c < 128; c++) total += m[4 + c];
    int c = 0;
    for (; c < 127; c++) {
        run += m[4 + c];
        if (run * 4 >= total * 3) break;
    }
    mink_vec2 lo = mink_v2(from_key(m[0]), from_key(m[1])), hi = mink_v2(from_key(m[2]), from_key(m[3]));
    int e = c - 64 + 1; /* three boxes in four: the larger side below 2^(e - 1) */
    double span = hi.x - lo.x > hi.y - lo.y ? (double)hi.x - lo.x : (double)hi.y - lo.y;
    while (span / ldexp(1.0, e) >= 46340.0) e++;
    g->origin = lo;
    g->inv_cell = ldexpf(1.0f, -e);
    double w = floor(((double)hi.x - lo.x) * ldexp(1.0, -e)) + 1, h = floor(((double)hi.y - lo.y) * ldexp(1.0, -e)) + 1;
    g->width = (uint32_t)(w < 46340 ? w : 46340);
    g->height = (uint32_t)(h < 46340 ? h : 46340);
    g->crowd_category = world->crowd[0];
    g->crowd_mask = world->crowd[1];
    g->crowd_flags = world->crowd[2];
    uint64_t most = ((uint64_t)g->width * g->height - 1) * 2 + 1;
    *passes = most < (1u << 8) ? 1 : most < (1u << 16) ? 2 : most < (1u << 24) ? 3 : 4;
    return 1;
}

/* ---- stepping and reading ------------------------------------------------------------------------ */

/* After a failed update (w->dirty) the device gets the host's tables whole: they are always current. */
static mink_status resync(mink_world *w) {
    if (!w->dirty) return MINK_OK;
    mink_status status = MINK_OK;
    for (mink_world_buf f = MINK_WB_SHAPE_OF; f <= MINK_WB_IDS; f++) {
        const void *src = f == MINK_WB_SHAPE_OF ? (const void *)w->shape_of
                          : f == MINK_WB_PROPS  ? (const void *)w->props
                                                : (const void *)w->ids;
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
    if (!isfinite(dt) || dt < 0.0f)
        return mink__fail(w->ctx, MINK_ERR_INVALID_ARGUMENT, "mink_world_step: dt must be finite and >= 0, not %g",
                          (double)dt);
    w->params.dt = dt;
    w->epoch++; /* this step's events and pairs will name the bodies alive now */
    double t0 = mink__now_ms();
    mink_world_stats st = {0};
    w->stats = st;
    mink_status status = resync(w);
    if (status == MINK_OK) status = mink__world_step_run(w);
    if (status != MINK_OK) w->events = w->pairs = 0; /* a failed step met nothing */
    w->stats.total_ms = mink__now_ms() - t0;
    /* The host copies, and the arrays (on OpenCL, device buffers). */
    w->stats.bytes = w->capacity * (sizeof *w->alive + sizeof *w->free_slots + sizeof *w->shape_of +
                                    sizeof *w->props + sizeof *w->ids) +
                     w->shape_capacity * sizeof *w->shapes;
    for (int b = 0; b < MINK_WB_COUNT; b++) w->stats.bytes += w->buf[b].bytes;
    return status;
}

mink_status mink_world_get(mink_world *w, const uint32_t *handles, size_t count, mink_vec2 *positions,
                           mink_vec2 *velocities) {
    if (w == NULL) return mink__fail(NULL, MINK_ERR_INVALID_ARGUMENT, "mink_world_get: world is NULL");
    uint32_t *slots = NULL;
    if (handles) {
        mink_status status = take_slots(w, "mink_world_get", handles, count, &slots);
        if (status != MINK_OK) return status;
    } else if (count > w->slots) {
        return mink__fail(w->ctx, MINK_ERR_INVALID_ARGUMENT, "mink_world_get: count %zu is more than the %zu slots",
                          count, w->slots);
    }
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
        for (size_t k = 0; k < w->events; k++) { /* the step names slots; the user, handles */
            all[k].body_a = handle_then(w, all[k].body_a);
            all[k].body_b = handle_then(w, all[k].body_b);
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
        out[k].a = handle_then(w, out[k].a);
        out[k].b = handle_then(w, out[k].b);
    }
    return status;
}

mink_world_stats mink_world_get_stats(const mink_world *w) {
    mink_world_stats st = {0};
    if (w == NULL) return st;
    st = w->stats;
    st.bodies = w->alive_count; /* these two are always now, not the last step's */
    st.slots = w->slots;
    return st;
}
