/* tests/fuzz/fuzz_world.c — worlds built and driven by fuzz input: shapes, bodies (any field may
 * be bad: the call must then fail with a message and change nothing), then a sequence of steps,
 * updates, removals and reads. After each step: as many bodies as were added and not removed, no
 * NaN anywhere, events within the step in their documented order. One input in eight runs on the
 * OpenCL path too and must give the same bits.
 *
 * Input: a mode byte (0x80: compare with OpenCL; 0x60: the layout, below), the shapes, the bodies,
 * then operations. */
#include "mink/world.h"
#include "fuzz.h"

enum { MAX_BODIES = 48, MAX_OPS = 10, MAX_EVENTS = 256 };

typedef struct outcome {
    mink_status status[3 + 2 * MAX_OPS];
    mink_vec2 pos[2 * MAX_BODIES], vel[2 * MAX_BODIES];
    mink_event events[MAX_EVENTS];
    size_t nevents, slots;
} outcome;

static mink_shape fuzz_shape(fuzz_in *in) {
    mink_shape s;
    memset(&s, 0, sizeof s);
    mink_body b = fuzz_body(in, 4, 0);
    s.type = b.type;
    if (b.type == MINK_SHAPE_AABB) s.geom.aabb = b.shape.aabb;
    else if (b.type == MINK_SHAPE_CIRCLE) s.geom.circle = b.shape.circle;
    else if (b.type == MINK_SHAPE_CAPSULE) s.geom.capsule = b.shape.capsule;
    else s.geom.polygon = b.shape.polygon;
    if (b.type == MINK_SHAPE_POLYGON) s.geom.polygon.angle = 0.0f; /* tables hold unturned shapes */
    return s;
}

static void check_step(mink_world *w, size_t alive, outcome *o) {
    mink_world_stats st = mink_world_get_stats(w);
    FUZZ_CHECK(st.bodies == alive, "%zu bodies alive, the world says %zu", alive, st.bodies);
    o->slots = st.slots;
    FUZZ_CHECK(mink_world_get(w, NULL, st.slots, o->pos, o->vel) == MINK_OK, "get: %s", mink_last_error());
    size_t n = 0;
    FUZZ_CHECK(mink_world_events(w, o->events, MAX_EVENTS, &n) == MINK_OK, "events: %s", mink_last_error());
    o->nevents = n < MAX_EVENTS ? n : MAX_EVENTS;
    for (size_t k = 0; k < o->nevents; k++) {
        const mink_event *e = &o->events[k];
        FUZZ_CHECK(!isnan(e->t) && !isnan(e->t_exit) && !isnan(e->normal.x) && !isnan(e->normal.y) &&
                       !isnan(e->point.x) && !isnan(e->point.y) && !isnan(e->depth),
                   "event %zu has a NaN", k);
        FUZZ_CHECK(e->t >= 0.0f && e->t < 1.0f, "event %zu at t %a", k, (double)e->t);
        if (k > 0) FUZZ_CHECK(o->events[k - 1].t <= e->t, "events out of order at %zu", k);
    }
}

static void run(mink_context *ctx, const uint8_t *data, size_t size, outcome *o) {
    memset(o, 0, sizeof *o);
    fuzz_in in = fuzz_start(data, size);
    uint8_t mode = fuzz_u8(&in);
    int calls = 0;
    mink_world *w = NULL;
    mink_status s = mink_world_create(ctx, &(mink_world_desc){.initial_bodies = 8}, &w);
    FUZZ_CHECK(s == MINK_OK, "create: %s", mink_last_error());

    uint32_t nshapes = 1 + fuzz_u8(&in) % 4, ids[4];
    mink_shape shapes[4];
    for (uint32_t k = 0; k < nshapes; k++) shapes[k] = fuzz_shape(&in);
    o->status[calls++] = s = mink_world_add_shapes(w, shapes, nshapes, ids);
    if (s != MINK_OK) nshapes = 0; /* a bad shape adds none */

    size_t n = fuzz_u8(&in) % (MAX_BODIES + 1), alive = 0;
    uint32_t shape[MAX_BODIES], response[MAX_BODIES], category[MAX_BODIES], mask[MAX_BODIES];
    mink_vec2 pos[MAX_BODIES], vel[MAX_BODIES];
    float inv_mass[MAX_BODIES], restitution[MAX_BODIES];
    uint32_t handles[MAX_BODIES];
    for (size_t k = 0; k < n; k++) {
        uint8_t pick = fuzz_u8(&in);
        shape[k] = nshapes && pick < 250 ? ids[pick % nshapes] : pick; /* now and then not a shape */
        pos[k] = fuzz_vec2(&in);
        vel[k] = fuzz_vec2(&in);
        uint8_t m = fuzz_u8(&in);
        inv_mass[k] = m < 100 ? 0.0f : m < 200 ? 1.0f : fuzz_float(&in);
        response[k] = fuzz_u8(&in) % (MINK_RESPONSE_COUNT + 1);
        restitution[k] = fuzz_u8(&in) < 200 ? 0.5f : fuzz_float(&in);
        category[k] = 1u << (fuzz_u8(&in) % 4);
        mask[k] = fuzz_u8(&in) | 1u;
    }
    /* The layout (mode & 0x60): as drawn; every body stacked on the first; or a cluster within 8 of
     * the origin with every fourth body far away (where drawn, or at 1e30 or -1e7). */
    uint8_t layout = mode & 0x60;
    for (size_t k = 1; k < n && layout == 0x40; k++) pos[k] = pos[0];
    for (size_t k = 0; k < n && layout == 0x60; k++)
        if (k % 4 != 0)
            pos[k] = mink_v2(isfinite(pos[k].x) ? fmodf(pos[k].x, 8.0f) : 0.0f,
                             isfinite(pos[k].y) ? fmodf(pos[k].y, 8.0f) : 0.0f);
        else if (k % 8 == 4)
            pos[k] = mink_v2(k % 16 == 4 ? 1e30f : -1e7f, isfinite(pos[k].y) ? pos[k].y : 0.0f);
    mink_world_bodies bodies = {.count = n, .shape = shape, .position = pos, .velocity = vel, .inv_mass = inv_mass,
                                .restitution = restitution, .response = response, .category = category,
                                .mask = mask};
    o->status[calls++] = s = mink_world_add(w, &bodies, handles);
    if (s == MINK_OK) alive = n;
    else FUZZ_CHECK(mink_world_get_stats(w).bodies == 0 && mink_last_error()[0], "a refused add changed the world");

    for (int op = 0; op < MAX_OPS && in.left > 0; op++) {
        uint8_t what = fuzz_u8(&in);
        if (what % 4 == 0 || alive == 0) {
            float dt = what & 0x80 ? fuzz_float(&in) : 1.0f;
            o->status[calls++] = s = mink_world_step(w, dt);
            FUZZ_CHECK(s == MINK_OK || s == MINK_ERR_INVALID_ARGUMENT, "step: %s", mink_last_error());
            if (s == MINK_OK) check_step(w, alive, o);
        } else if (what % 4 == 1) {
            mink_vec2 v = fuzz_vec2(&in);
            uint32_t h = handles[fuzz_u8(&in) % alive];
            o->status[calls++] = mink_world_set(w, &h, &(mink_world_bodies){.count = 1, .velocity = &v});
        } else if (what % 4 == 2) {
            size_t k = fuzz_u8(&in) % alive;
            o->status[calls++] = s = mink_world_remove(w, &handles[k], 1);
            FUZZ_CHECK(s == MINK_OK, "remove: %s", mink_last_error());
            handles[k] = handles[--alive];
        } else {
            mink_vec2 p = fuzz_vec2(&in);
            uint32_t h = handles[fuzz_u8(&in) % alive];
            o->status[calls++] = mink_world_set(w, &h, &(mink_world_bodies){.count = 1, .position = &p});
        }
    }
    mink_world_destroy(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static outcome scalar, opencl;
    run(fuzz_context(0), data, size, &scalar);
    if (size > 0 && (data[0] & 0xe0) == 0xe0) {
        run(fuzz_context(1), data, size, &opencl);
        FUZZ_CHECK(memcmp(&scalar, &opencl, sizeof scalar) == 0, "the OpenCL world differs from the scalar one");
    }
    return 0;
}
