/* host/world_bodies.c — what a world holds, as the API changes it: the shape table, and bodies
 * added, set and removed, each call checked whole before anything changes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "world_internal.h"

#define GEN_MAX ((1u << (32u - MINK_WORLD_SLOT_BITS)) - 1u) /* a slot at this generation is retired */

_Static_assert(MINK_WORLD_MAX_BODIES == 1u << MINK_WORLD_SLOT_BITS, "a handle's slot bits hold every slot");

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
    else if (s->type == MINK_SHAPE_CAPSULE)
        d.geom.capsule = s->geom.capsule;
    else
        d.geom.polygon = s->geom.polygon;
    return d;
}

mink_status mink_world_add_shapes(mink_world *w, const mink_shape *shapes, size_t count, uint32_t *ids) {
    if (w == NULL) return mink__fail(NULL, MINK_ERR_INVALID_ARGUMENT, "mink_world_add_shapes: world is NULL");
    if (mink__async_guard(w->ctx, "mink_world_add_shapes") != MINK_OK) return MINK_ERR_INVALID_ARGUMENT;
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
        mink_aabb box = mink_shape_bounds(&s, mink_v2(0.0f, 0.0f));
        float most = mink_maxf(mink_maxf(-box.min.x, -box.min.y), mink_maxf(box.max.x, box.max.y));
        if (!(most <= MINK_WORLD_MAX_SHAPE))
            return mink__fail(w->ctx, MINK_ERR_INVALID_ARGUMENT,
                              "mink_world_add_shapes: shape %zu reaches %g from its body's position; at most "
                              "MINK_WORLD_MAX_SHAPE (1e30)", k, (double)most);
    }
    size_t need = w->shape_count + count;
    if (need > w->shape_capacity) {
        size_t cap = w->shape_capacity ? w->shape_capacity * 2 : 16;
        while (cap < need) cap *= 2;
        mink_shape *p = mink__grow(w->shapes, cap, sizeof *p);
        if (p == NULL) return mink__fail(w->ctx, MINK_ERR_OUT_OF_MEMORY, "mink_world_add_shapes: out of memory");
        w->shapes = p;
        w->shape_capacity = cap;
    }
    mink_status status = MINK_OK;
    if (w->opencl) status = mink__world_reserve(w, MINK_WB_SHAPES, w->shape_capacity * sizeof(mink_shape), 0);
    if (status != MINK_OK) return status;
    /* Every input is read before any output is written: ids may share memory with shapes. */
    for (size_t k = 0; k < count; k++) w->shapes[w->shape_count + k] = defined_shape(&shapes[k]);
    if (w->opencl)
        MINK_CL_TRY(w->ctx, clEnqueueWriteBuffer(w->ctx->queue, w->buf[MINK_WB_SHAPES].mem, CL_TRUE, 0,
                                                 need * sizeof(mink_shape), w->shapes, 0, NULL, NULL), fail);
    /* Only now: a failed write adds no shape. The scalar step reads the host table. */
    for (size_t k = w->shape_count; k < need; k++) w->params.hulls |= mink_shape_hulls(&w->shapes[k]);
    for (size_t k = 0; k < count; k++) ids[k] = (uint32_t)(w->shape_count + k);
    w->shape_count = need;
fail:
    return status;
}

/* ---- handles ------------------------------------------------------------------------------------- */

/* Every handle alive and named once; their slots in a new array (*out, to free), in order. */
mink_status mink__world_take_slots(mink_world *w, const char *fn, const uint32_t *handles, size_t count,
                                   uint32_t **out) {
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
        else if (w->alive[s] == 2 && mink__world_handle(w, s) == h) why = "named twice";
        else if (w->alive[s] == 0 || mink__world_handle(w, s) != h) why = "a removed body's";
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
        else if (b->inv_mass && !(b->inv_mass[k] >= 0.0f && b->inv_mass[k] <= MINK_WORLD_MAX_INV_MASS))
            bad = "inv_mass must be in [0, MINK_WORLD_MAX_INV_MASS (1e30)]";
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

/* Writes the given fields of bodies to the slots (where each sits, index_of); on OpenCL through the
 * device's scatter. */
static mink_status write_bodies(mink_world *w, const uint32_t *slots, const mink_world_bodies *b, int fresh) {
    size_t n = b->count;
    w->crowd_single = -1; /* counted again at the next step */
    uint32_t *at = malloc((n ? n : 1) * sizeof *at);
    if (at == NULL) return mink__fail(w->ctx, MINK_ERR_OUT_OF_MEMORY, "mink_world: out of memory");
    for (size_t k = 0; k < n; k++) {
        uint32_t s = at[k] = w->index_of[slots[k]];
        if (b->shape) w->shape_of[s] = b->shape[k];
        if (b->user_id) w->ids[s] = b->user_id[k];
        else if (fresh) w->ids[s] = mink__world_handle(w, slots[k]);
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
        if (zeros == NULL) {
            free(at);
            return mink__fail(w->ctx, MINK_ERR_OUT_OF_MEMORY, "mink_world: out of memory");
        }
        if (pos == NULL) pos = zeros;
        if (vel == NULL) vel = zeros;
    }
    mink_status status = MINK_OK;
    if (!w->opencl) {
        mink_vec2 *hp = w->buf[MINK_WB_POS].host, *hv = w->buf[MINK_WB_VEL].host;
        for (size_t k = 0; k < n; k++) {
            if (pos) hp[at[k]] = pos[k];
            if (vel) hv[at[k]] = vel[k];
        }
    } else {
        /* Gather the host copies' new values in handle order, then scatter them on the device. */
        size_t most = sizeof(mink_body_props);
        char *vals = malloc((n ? n : 1) * most);
        if (vals == NULL) status = mink__fail(w->ctx, MINK_ERR_OUT_OF_MEMORY, "mink_world: out of memory");
        for (mink_world_buf f = MINK_WB_SHAPE_OF; status == MINK_OK && f <= MINK_WB_SLOT_OF; f++) {
            size_t size = mink__world_field_size(f);
            const char *src = f == MINK_WB_SHAPE_OF ? (const char *)w->shape_of
                              : f == MINK_WB_PROPS  ? (const char *)w->props
                              : f == MINK_WB_IDS    ? (const char *)w->ids
                                                    : (const char *)w->slot_of;
            for (size_t k = 0; k < n; k++) memcpy(vals + k * size, src + (size_t)at[k] * size, size);
            status = mink__world_cl_write(w, f, at, n, vals);
        }
        free(vals);
        if (status == MINK_OK && pos) status = mink__world_cl_write(w, MINK_WB_POS, at, n, pos);
        if (status == MINK_OK && vel) status = mink__world_cl_write(w, MINK_WB_VEL, at, n, vel);
    }
    free(zeros);
    free(at);
    return status;
}

mink_status mink_world_add(mink_world *w, const mink_world_bodies *b, uint32_t *handles) {
    if (w == NULL) return mink__fail(NULL, MINK_ERR_INVALID_ARGUMENT, "mink_world_add: world is NULL");
    if (mink__async_guard(w->ctx, "mink_world_add") != MINK_OK) return MINK_ERR_INVALID_ARGUMENT;
    w->query_grid.valid = 0; /* the bodies may change */
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
    status = mink__world_reserve_slots(w, slots);
    uint32_t *taken = status == MINK_OK ? malloc(b->count * sizeof *taken) : NULL;
    if (status == MINK_OK && taken == NULL)
        status = mink__fail(w->ctx, MINK_ERR_OUT_OF_MEMORY, "mink_world_add: out of memory");
    if (status != MINK_OK) return status;
    size_t old_slots = w->slots, old_free = w->free_count;
    for (size_t k = 0; k < b->count; k++)
        taken[k] = k < reused ? w->free_slots[--w->free_count] : (uint32_t)(w->slots + (k - reused));
    for (size_t s = w->slots; s < slots; s++) { /* new slots, each at the next index */
        w->gen[s] = 0, w->gen_epoch[s] = 0;
        w->slot_of[s] = w->index_of[s] = (uint32_t)s;
    }
    w->slots = slots;
    for (size_t k = 0; k < b->count; k++) w->alive[taken[k]] = 1;
    w->alive_count += b->count;
    status = write_bodies(w, taken, b, 1);
    if (status == MINK_OK) { /* the handles last: `handles` may be one of the inputs */
        for (size_t k = 0; k < b->count; k++) handles[k] = mink__world_handle(w, taken[k]);
    } else { /* the device failed part way: add nothing (popping left the free list's entries) */
        for (size_t k = 0; k < b->count; k++) {
            w->alive[taken[k]] = 0;
            w->shape_of[w->index_of[taken[k]]] = MINK_WORLD_DEAD;
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
            uint32_t i = w->index_of[slots[k]];
            old_shape[k] = w->shape_of[i];
            old_props[k] = w->props[i];
            old_ids[k] = w->ids[i];
        }
        status = write_bodies(w, slots, b, 0);
        if (status != MINK_OK) {
            for (size_t k = 0; k < n; k++) {
                uint32_t i = w->index_of[slots[k]];
                w->shape_of[i] = old_shape[k];
                w->props[i] = old_props[k];
                w->ids[i] = old_ids[k];
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
    if (mink__async_guard(w->ctx, "mink_world_set") != MINK_OK) return MINK_ERR_INVALID_ARGUMENT;
    w->query_grid.valid = 0; /* the bodies may change */
    if (b == NULL) return mink__fail(w->ctx, MINK_ERR_INVALID_ARGUMENT, "mink_world_set: bodies is NULL");
    uint32_t *slots = NULL;
    mink_status status = mink__world_take_slots(w, "mink_world_set", handles, b->count, &slots);
    if (status == MINK_OK) status = check_bodies(w, "mink_world_set", b);
    if (status == MINK_OK && b->count > 0) status = set_slots(w, slots, b);
    free(slots);
    return status;
}

/* Removes the bodies in slots: each slot's generation moves on (the epoch keeps the last step's),
 * and the slot is free again unless its generation is spent. */
static mink_status remove_slots(mink_world *w, const uint32_t *slots, size_t count) {
    w->crowd_single = -1;
    uint32_t *old_shape = malloc(count * sizeof *old_shape); /* write_bodies may fail on either path */
    if (old_shape == NULL) return mink__fail(w->ctx, MINK_ERR_OUT_OF_MEMORY, "mink_world_remove: out of memory");
    size_t old_free = w->free_count;
    for (size_t k = 0; k < count; k++) {
        uint32_t s = slots[k], i = w->index_of[s];
        old_shape[k] = w->shape_of[i];
        w->alive[s] = 0;
        w->shape_of[i] = MINK_WORLD_DEAD;
        if (w->gen_epoch[s] != w->epoch) w->gen_then[s] = w->gen[s], w->gen_epoch[s] = w->epoch;
        if (++w->gen[s] < GEN_MAX) w->free_slots[w->free_count++] = s;
    }
    w->alive_count -= count;
    mink_world_bodies dead = {.count = count, .shape = NULL};
    /* Only shape_of changes: write_bodies copies the host fields across. */
    mink_status status = write_bodies(w, slots, &dead, 0);
    if (status != MINK_OK) { /* the device (or memory) failed part way: remove nothing */
        for (size_t k = 0; k < count; k++) {
            w->alive[slots[k]] = 1;
            w->shape_of[w->index_of[slots[k]]] = old_shape[k];
            w->gen[slots[k]]--;
        }
        w->alive_count += count;
        w->free_count = old_free;
        w->dirty = w->opencl;
    }
    free(old_shape);
    return status;
}

mink_status mink_world_remove(mink_world *w, const uint32_t *handles, size_t count) {
    if (w == NULL) return mink__fail(NULL, MINK_ERR_INVALID_ARGUMENT, "mink_world_remove: world is NULL");
    if (mink__async_guard(w->ctx, "mink_world_remove") != MINK_OK) return MINK_ERR_INVALID_ARGUMENT;
    w->query_grid.valid = 0; /* the bodies may change */
    uint32_t *slots = NULL;
    mink_status status = mink__world_take_slots(w, "mink_world_remove", handles, count, &slots);
    if (status == MINK_OK && count > 0) status = remove_slots(w, slots, count);
    free(slots);
    return status;
}

