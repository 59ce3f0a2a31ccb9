/* tests/test_faults.c — device faults: the Nth OpenCL call fails (host/seam.h), for every N.
 *
 * Each failure must come back as a status whose message names the call and the OpenCL error; the
 * context must stay usable (the same bits as the scalar path after the fault) or, after a
 * "sticky" fault as from a lost device, be destroyable; and no OpenCL object or host memory may
 * leak (the seam counts live objects; the sanitizer build's LeakSanitizer watches the heap). */
#include "test_util.h"

#include "mink/world.h"
#include "host/world_internal.h" /* order_always */
#include "seam.h"

#define BATCH 2000
#define SEAM_CALLS 8192 /* the seam's log (host/seam.c) */
#define FAULT CL_OUT_OF_RESOURCES
#define LOST CL_MEM_OBJECT_ALLOCATION_FAILURE

/* The message of a failure the seam caused names the call and the error. */
static void check_reported(mink_status status, const char *message, cl_int err) {
    const char *call = mink__seam_failed();
    assert_non_null(call);
    assert_int_not_equal(status, MINK_OK);
    const char *name = err == FAULT ? "CL_OUT_OF_RESOURCES" : "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    if (strstr(message, call) == NULL || strstr(message, name) == NULL) {
        fprintf(stderr, "fault in %s (call %lu) reported as: %s\n", call, mink__seam_calls(), message);
        fail();
    }
}

/* Which calls of the run just made (the seam's log) to fail. A call is failed where it is new in
 * its context: its name with the names of the CONTEXT calls before it and the one after, a
 * sequence not met earlier in the run. The 46th clCreateKernel of a run of them, or a world's
 * fourth step after its third, takes the path the earlier one took; failing every call made the
 * sanitizer build's suite run past CI's time. */
#define CONTEXT MINK_TEST_LENGTH(6, 2) /* the sanitizer build: fewer neighbours, fewer faults */
typedef struct fault_plan {
    unsigned long calls, chosen;
    unsigned char *fail; /* fail[n]: call n is failed */
} fault_plan;

static const char *call_name(unsigned long n, unsigned long calls) {
    return n >= 1 && n <= calls ? mink__seam_call(n) : "";
}

static int same_context(unsigned long a, unsigned long b, unsigned long calls) {
    for (unsigned long d = 0; d <= CONTEXT + 1; d++) { /* from the call after back to CONTEXT before */
        const char *x = a + 1 >= d ? call_name(a + 1 - d, calls) : "";
        const char *y = b + 1 >= d ? call_name(b + 1 - d, calls) : "";
        if (strcmp(x, y) != 0) return 0;
    }
    return 1;
}

static fault_plan plan_faults(void) {
    fault_plan plan = {.calls = mink__seam_calls()};
    assert_non_null(mink__seam_call(plan.calls)); /* the seam's log holds the whole run */
    plan.fail = calloc(plan.calls + 1, 1);
    assert_non_null(plan.fail);
    for (unsigned long n = 1; n <= plan.calls; n++) {
        int seen = 0;
        for (unsigned long m = 1; m < n && !seen; m++) seen = plan.fail[m] && same_context(m, n, plan.calls);
        plan.fail[n] = (unsigned char)!seen;
        plan.chosen += !seen;
    }
    return plan;
}

static mink_context *opencl_context(size_t max_pairs_per_launch, mink_transfer transfer) {
    mink_context *ctx = NULL;
    mink__seam_arm(0, 0, 0);
    assert_int_equal(mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_OPENCL,
                                                               .max_pairs_per_launch = max_pairs_per_launch,
                                                               .transfer = transfer},
                                         &ctx),
                     MINK_OK);
    return ctx;
}

/* A context on the device and its first batch, which builds the program. */
static mink_status create_and_build(mink_context **ctx) {
    mink_aabb_pair pair;
    mink_hit hit;
    mink_sample_aabb_pairs(7, 1, &pair);
    *ctx = (mink_context *)1;
    mink_status status = mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_OPENCL}, ctx);
    if (status == MINK_OK) status = mink_batch_sweep_aabb(*ctx, &pair, 1, 1.0f, &hit);
    return status;
}

static void context_creation(void **state) {
    (void)state;
    long before = mink__seam_live();
    mink_context *ctx = NULL;
    mink__seam_arm(0, 0, 0);
    assert_int_equal(create_and_build(&ctx), MINK_OK);
    fault_plan plan = plan_faults();
    mink_context_destroy(ctx);
    assert_int_equal(mink__seam_live(), before);
    assert_true(plan.calls > 15); /* discovery, context, queue, then the box kernel's part: its program, build, kernel, the layout check */
    printf("context creation and first build: %lu OpenCL calls, %lu of them made to fail once and for good\n",
           plan.calls, plan.chosen);
    for (unsigned long n = 1; n <= plan.calls; n++) {
        for (int sticky = 0; sticky < 2 && plan.fail[n]; sticky++) {
            mink__seam_arm(n, sticky, sticky ? LOST : FAULT);
            mink_status status = create_and_build(&ctx);
            check_reported(status, mink_last_error(), sticky ? LOST : FAULT);
            if (ctx != NULL) mink_context_destroy(ctx); /* made, its first build failed */
            assert_int_equal(mink__seam_live(), before);
        }
    }
    mink__seam_arm(0, 0, 0);
    free(plan.fail);
}

/* Two batch kinds, the second with the rotating kernel's extra arguments. */
static mink_status batches(mink_context *ctx, const mink_pair *pairs, const mink_pair *turning, mink_hit *hits) {
    mink_status status = mink_batch_sweep(ctx, pairs, BATCH, 1.0f, hits);
    if (status == MINK_OK) status = mink_batch_sweep_rotating(ctx, turning, BATCH, 1.0f, NULL, hits + BATCH);
    return status;
}

static void batch_faults(mink_transfer transfer) {
    mink_pair *pairs = malloc(2 * BATCH * sizeof *pairs);
    mink_hit *want = malloc(2 * BATCH * sizeof *want), *got = malloc(2 * BATCH * sizeof *got);
    assert_non_null(pairs);
    assert_non_null(want);
    assert_non_null(got);
    mink_sample_pairs(41, BATCH, pairs);
    mink_sample_rotating_pairs(42, BATCH, pairs + BATCH);
    mink_context *scalar = NULL;
    assert_int_equal(mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR}, &scalar), MINK_OK);
    assert_int_equal(batches(scalar, pairs, pairs + BATCH, want), MINK_OK);
    mink_context_destroy(scalar);

    long before = mink__seam_live();
    /* 700 pairs a launch: three launches a batch, so faults land between chunks too. */
    mink_context *ctx = opencl_context(700, transfer);
    mink__seam_arm(0, 0, 0);
    assert_int_equal(batches(ctx, pairs, pairs + BATCH, got), MINK_OK);
    mink__seam_arm(0, 0, 0); /* count a call that finds the COPY buffers made */
    assert_int_equal(batches(ctx, pairs, pairs + BATCH, got), MINK_OK);
    fault_plan plan = plan_faults();
    long with_context = mink__seam_live(); /* COPY keeps its two sets of buffers and second queue */
    printf("batches (%s): %lu OpenCL calls, %lu of them made to fail once and for good\n",
           transfer == MINK_TRANSFER_MAP ? "map" : "copy", plan.calls, plan.chosen);
    assert_memory_equal(got, want, 2 * BATCH * sizeof *got);
    for (unsigned long n = 1; n <= plan.calls; n++) {
        for (int sticky = 0; sticky < 2 && plan.fail[n]; sticky++) {
            mink__seam_arm(n, sticky, sticky ? LOST : FAULT);
            mink_status status = batches(ctx, pairs, pairs + BATCH, got);
            check_reported(status, mink_context_error(ctx), sticky ? LOST : FAULT);
            assert_true(mink__seam_live() <= with_context); /* no buffer or event left behind */
            /* The device is back: the same context gives the same bits. */
            mink__seam_arm(0, 0, 0);
            memset(got, 0xab, 2 * BATCH * sizeof *got);
            assert_int_equal(batches(ctx, pairs, pairs + BATCH, got), MINK_OK);
            assert_memory_equal(got, want, 2 * BATCH * sizeof *got);
            assert_int_equal(mink__seam_live(), with_context);
        }
    }
    mink_context_destroy(ctx);
    assert_int_equal(mink__seam_live(), before);
    free(plan.fail);
    free(pairs);
    free(want);
    free(got);
}

static void batch_map(void **state) {
    (void)state;
    batch_faults(MINK_TRANSFER_MAP);
}

static void batch_copy(void **state) {
    (void)state;
    batch_faults(MINK_TRANSFER_COPY);
}

/* ---- worlds ---------------------------------------------------------------------------------------- */

#define BODIES 96

/* What a world scenario leaves: final positions, velocities and the last step's events. */
typedef struct outcome {
    mink_vec2 pos[2 * BODIES], vel[2 * BODIES];
    mink_event events[256];
    size_t nevents;
    int faults; /* failures seen (each retried once the device was back) */
} outcome;

/* Runs one world call; on an injected failure checks the report, that a failed step left the
 * bodies as they were (`before`, when given), and retries with the device back. */
#define WORLD_CALL(ctx, o, call)                                                                   \
    do {                                                                                           \
        mink_status s_ = (call);                                                                   \
        if (s_ != MINK_OK) {                                                                       \
            check_reported(s_, mink_context_error(ctx), FAULT);                                    \
            mink__seam_arm(0, 0, 0);                                                               \
            (o)->faults++;                                                                         \
            s_ = (call);                                                                           \
        }                                                                                          \
        assert_int_equal(s_, MINK_OK);                                                             \
    } while (0)

static void world_step_checked(mink_context *ctx, mink_world *w, outcome *o, size_t slots) {
    mink_vec2 before[2 * BODIES], after[2 * BODIES], vbefore[2 * BODIES], vafter[2 * BODIES];
    WORLD_CALL(ctx, o, mink_world_get(w, NULL, slots, before, vbefore));
    mink_status s = mink_world_step(w, 1.0f);
    if (s != MINK_OK) {
        check_reported(s, mink_context_error(ctx), FAULT);
        mink__seam_arm(0, 0, 0);
        o->faults++;
        assert_int_equal(mink_world_get(w, NULL, slots, after, vafter), MINK_OK);
        assert_memory_equal(after, before, slots * sizeof *after); /* "as they were before the call" */
        assert_memory_equal(vafter, vbefore, slots * sizeof *vafter);
        s = mink_world_step(w, 1.0f);
    }
    assert_int_equal(s, MINK_OK);
}

/* A small crowd in a walled room: adds (growing past the first reservation), a step, updates, a
 * removal, adds that reuse slots, more steps, and every read; the bodies renumbered by place before
 * every step after the first (host/world_order.c), so its calls fail in turn too. */
static void world_scenario(mink_context *ctx, outcome *o) {
    memset(o, 0, sizeof *o);
    mink_world *w = NULL;
    /* Two impulse rounds: every round is a few more calls, and each call is made to fail in turn. */
    WORLD_CALL(ctx, o, mink_world_create(ctx, &(mink_world_desc){.initial_bodies = 32, .max_rounds = 2}, &w));
    w->order_always = 1;
    mink_shape shapes[3] = {box_shape(0.5f, 0.5f), circle_shape(0.4f), box_shape(20.0f, 0.25f)};
    uint32_t ids[3];
    WORLD_CALL(ctx, o, mink_world_add_shapes(w, shapes, 3, ids));

    uint32_t shape[BODIES], response[BODIES], handles[BODIES], more[BODIES / 4];
    mink_vec2 pos[BODIES], vel[BODIES];
    float inv_mass[BODIES];
    mink_rng rng = mink_rng_seed(7);
    for (int k = 0; k < BODIES; k++) {
        int wall = k < 4;
        shape[k] = wall ? ids[2] : ids[k % 2];
        pos[k] = wall ? mink_v2(0.0f, k < 2 ? (k == 0 ? -20.0f : 20.0f) : 0.0f)
                      : mink_v2(mink_rng_float(&rng, -15.0f, 15.0f), mink_rng_float(&rng, -15.0f, 15.0f));
        if (k >= 2 && k < 4) pos[k] = mink_v2(0.0f, k == 2 ? -30.0f : 30.0f);
        vel[k] = wall ? mink_v2(0.0f, 0.0f) : mink_v2(mink_rng_float(&rng, -6.0f, 6.0f), mink_rng_float(&rng, -6.0f, 6.0f));
        inv_mass[k] = wall ? 0.0f : 1.0f;
        response[k] = (uint32_t)(k % 3 == 0 ? MINK_RESPONSE_BOUNCE : MINK_RESPONSE_SLIDE);
    }
    mink_world_bodies all = {.count = BODIES, .shape = shape, .position = pos, .velocity = vel,
                             .inv_mass = inv_mass, .response = response};
    WORLD_CALL(ctx, o, mink_world_add(w, &all, handles));
    world_step_checked(ctx, w, o, BODIES);

    mink_vec2 slow[8];
    for (int k = 0; k < 8; k++) slow[k] = mink_v2(0.5f * (float)k, -1.0f);
    WORLD_CALL(ctx, o, mink_world_set(w, handles + 10, &(mink_world_bodies){.count = 8, .velocity = slow, .response = response}));
    WORLD_CALL(ctx, o, mink_world_remove(w, handles + 40, 12));
    mink_world_bodies again = {.count = BODIES / 4, .shape = shape + 20, .position = pos + 20, .velocity = vel + 30};
    WORLD_CALL(ctx, o, mink_world_add(w, &again, more));
    size_t slots = mink_world_get_stats(w).slots;
    assert_true(slots <= 2 * BODIES);
    for (int s = 0; s < 3; s++) world_step_checked(ctx, w, o, slots);

    WORLD_CALL(ctx, o, mink_world_get(w, NULL, slots, o->pos, o->vel));
    mink_vec2 picked[8];
    WORLD_CALL(ctx, o, mink_world_get(w, more, 8, picked, NULL));
    for (int k = 0; k < 8; k++) assert_memory_equal(&picked[k], &o->pos[mink_world_slot(more[k])], sizeof picked[k]);
    WORLD_CALL(ctx, o, mink_world_events(w, o->events, 256, &o->nevents));
    mink_world_pair pairs[4];
    size_t npairs = 0;
    WORLD_CALL(ctx, o, mink_world_pairs(w, pairs, 4, &npairs));
    assert_true(npairs > 0);
    mink_world_destroy(w);
}

static void world_faults(void **state) {
    (void)state;
    static outcome want, got;
    mink_context *scalar = NULL;
    assert_int_equal(mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR}, &scalar), MINK_OK);
    world_scenario(scalar, &want);
    mink_context_destroy(scalar);
    assert_true(want.nevents > 0 && want.nevents < 256);

    long before = mink__seam_live();
    mink_context *ctx = opencl_context(0, MINK_TRANSFER_AUTO);
    mink_world *first = NULL; /* a context checks the world's layout once, at its first world */
    assert_int_equal(mink_world_create(ctx, NULL, &first), MINK_OK);
    mink_world_destroy(first);
    long with_context = mink__seam_live();
    mink__seam_arm(0, 0, 0);
    world_scenario(ctx, &got);
    fault_plan plan = plan_faults();
    assert_memory_equal(&got, &want, sizeof got);
    assert_int_equal(mink__seam_live(), with_context);
    printf("world: %lu OpenCL calls, %lu of them made to fail once\n", plan.calls, plan.chosen);
    for (unsigned long n = 1; n <= plan.calls; n++) {
        if (!plan.fail[n]) continue;
        mink__seam_arm(n, 0, FAULT);
        world_scenario(ctx, &got);
        assert_int_equal(got.faults, 1);
        got.faults = 0;
        if (memcmp(&got, &want, sizeof got) != 0) {
            fprintf(stderr, "after a fault in call %lu (%s) the world differs from the scalar path's\n", n,
                    mink__seam_failed());
            fail();
        }
        assert_int_equal(mink__seam_live(), with_context);
    }
    mink_context_destroy(ctx);
    assert_int_equal(mink__seam_live(), before);
    free(plan.fail);
}

/* A world whose step needs its passes for polygons and capsules, and whose queries are asked: a
 * square and a capsule at rest, a circle moving onto them. */
static mink_world *late_part_world(mink_context *ctx, uint32_t handles[3]) {
    mink_world *w = NULL;
    assert_int_equal(mink_world_create(ctx, NULL, &w), MINK_OK);
    mink_shape shapes[3] = {circle_shape(0.3f), {.type = MINK_SHAPE_POLYGON}, capsule_shape(-1.0f, 0.0f, 1.0f, 0.0f, 0.1f)};
    mink_vec2 square[4] = {{-0.5f, -0.5f}, {0.5f, -0.5f}, {0.5f, 0.5f}, {-0.5f, 0.5f}};
    assert_int_equal(mink_polygon_make(square, 4, mink_v2(0, 0), 0.0f, &shapes[1].geom.polygon), MINK_POLYGON_OK);
    uint32_t ids[3];
    assert_int_equal(mink_world_add_shapes(w, shapes, 3, ids), MINK_OK);
    mink_vec2 pos[3] = {{-3.0f, 0.0f}, {0.0f, 0.0f}, {0.0f, 2.0f}}, vel[3] = {{4.0f, 0.5f}, {0, 0}, {0, 0}};
    float inv_mass[3] = {1.0f, 0.0f, 0.0f};
    mink_world_bodies b = {.count = 3, .shape = ids, .position = pos, .velocity = vel, .inv_mass = inv_mass};
    assert_int_equal(mink_world_add(w, &b, handles), MINK_OK);
    return w;
}

/* A first step (what 0) or a first ray cast after a step (what 1) of late_part_world. */
static mink_status late_part_call(mink_world *w, int what, mink_world_hit *hit) {
    if (!what) return mink_world_step(w, 1.0f);
    mink_world_query ray = {.position = mink_v2(0.0f, 5.0f), .translation = mink_v2(0.2f, -10.0f), .shape = MINK_QUERY_POINT};
    return mink_world_cast(w, &ray, 1, NULL, hit);
}

/* The parts of the program built after a world's own (core/parts.h): its step's passes for
 * polygons and capsules, at the first step that has them, and its queries, at the first query.
 * Each call of those builds failing fails that step or query with a status and a message and
 * leaves the bodies as they were; the same call again builds the part and gives the scalar path's
 * bits; nothing leaks. A context of its own for each fault: a query builds two parts, and the
 * first may be whole when the second fails. */
static void late_part_faults(void **state) {
    (void)state;
    uint32_t h[3];
    mink_vec2 want[2][3], got[3], before[3];
    mink_world_hit want_hit, got_hit;
    mink_context *scalar = NULL;
    assert_int_equal(mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR}, &scalar), MINK_OK);
    mink_world *w = late_part_world(scalar, h);
    assert_int_equal(late_part_call(w, 0, NULL), MINK_OK);
    assert_int_equal(mink_world_get(w, h, 3, want[0], NULL), MINK_OK);
    assert_int_equal(late_part_call(w, 1, &want_hit), MINK_OK);
    assert_int_equal(mink_world_get(w, h, 3, want[1], NULL), MINK_OK);
    assert_true(want_hit.hit.flags & MINK_HIT_CONTACT);
    mink_world_destroy(w);
    mink_context_destroy(scalar);

    long at_start = mink__seam_live();
    size_t failed = 0;
    for (int what = 0; what < 2; what++) {
        /* The calls of that first step or query. */
        mink_context *ctx = opencl_context(0, MINK_TRANSFER_AUTO);
        w = late_part_world(ctx, h);
        if (what) assert_int_equal(late_part_call(w, 0, NULL), MINK_OK);
        mink__seam_arm(0, 0, 0);
        assert_int_equal(late_part_call(w, what, &got_hit), MINK_OK);
        unsigned long calls = mink__seam_calls();
        const char *names[SEAM_CALLS];
        assert_true(calls <= SEAM_CALLS);
        for (unsigned long n = 1; n <= calls; n++) names[n - 1] = mink__seam_call(n);
        mink_world_destroy(w);
        mink_context_destroy(ctx);
        for (unsigned long n = 1; n <= calls; n++) {
            const char *name = names[n - 1];
            if (strcmp(name, "clCreateProgramWithSource") != 0 && strcmp(name, "clBuildProgram") != 0 &&
                strcmp(name, "clCreateKernel") != 0 && strcmp(name, "clGetKernelWorkGroupInfo") != 0)
                continue;
            ctx = opencl_context(0, MINK_TRANSFER_AUTO);
            w = late_part_world(ctx, h);
            if (what) assert_int_equal(late_part_call(w, 0, NULL), MINK_OK);
            assert_int_equal(mink_world_get(w, h, 3, before, NULL), MINK_OK);
            mink__seam_arm(n, 0, FAULT);
            mink_status s = late_part_call(w, what, &got_hit);
            check_reported(s, mink_context_error(ctx), FAULT);
            mink__seam_arm(0, 0, 0);
            assert_int_equal(mink_world_get(w, h, 3, got, NULL), MINK_OK);
            assert_memory_equal(got, before, sizeof got);
            assert_int_equal(late_part_call(w, what, &got_hit), MINK_OK); /* built this time */
            if (what) assert_memory_equal(&got_hit, &want_hit, sizeof got_hit);
            assert_int_equal(mink_world_get(w, h, 3, got, NULL), MINK_OK);
            assert_memory_equal(got, want[what], sizeof got);
            mink_world_destroy(w);
            mink_context_destroy(ctx);
            assert_int_equal(mink__seam_live(), at_start);
            failed++;
        }
    }
    printf("late parts: %zu calls of their builds made to fail\n", failed);
    assert_true(failed >= 8); /* a program, its build and its kernels, for each of the three parts */
}

/* A lost device: from call N on everything fails. The world is destroyed without complaint and
 * leaves nothing behind; the context works again once the device does. In both transfer modes:
 * AUTO maps on a CPU device and copies on a GPU, whose context keeps its batch buffers. */
static void world_lost_device(mink_transfer transfer) {
    mink_context *ctx = opencl_context(0, transfer);
    mink_aabb_pair pairs[64];
    mink_hit want[64], got[64];
    mink_sample_aabb_pairs(3, 64, pairs);
    for (int k = 0; k < 64; k++) want[k] = mink_sweep_aabb(pairs[k].a, pairs[k].va, pairs[k].b, pairs[k].vb, 1.0f);
    assert_int_equal(mink_batch_sweep_aabb(ctx, pairs, 64, 1.0f, got), MINK_OK); /* the kept buffers */
    static outcome o;
    world_scenario(ctx, &o); /* the world's part of the program, built: the context keeps it */
    long with_context = mink__seam_live();
    mink__seam_arm(0, 0, 0);
    world_scenario(ctx, &o);
    fault_plan plan = plan_faults();
    for (unsigned long n = 1; n <= plan.calls; n++) {
        if (!plan.fail[n]) continue;
        mink__seam_arm(n, 1, LOST);
        mink_world *w = NULL;
        mink_status s = mink_world_create(ctx, NULL, &w);
        uint32_t ids[1], handles[200];
        mink_shape shape = circle_shape(0.5f);
        if (s == MINK_OK) s = mink_world_add_shapes(w, &shape, 1, ids);
        uint32_t shape_of[200] = {0};
        mink_vec2 vel[200];
        for (int k = 0; k < 200; k++) vel[k] = mink_v2((float)(k % 7) - 3.0f, (float)(k % 5) - 2.0f);
        if (s == MINK_OK) s = mink_world_add(w, &(mink_world_bodies){.count = 200, .shape = shape_of, .velocity = vel}, handles);
        for (int k = 0; k < 4 && s == MINK_OK; k++) s = mink_world_step(w, 1.0f);
        if (s != MINK_OK) check_reported(s, mink_context_error(ctx), LOST);
        mink_world_destroy(w);
        mink__seam_arm(0, 0, 0);
        assert_int_equal(mink__seam_live(), with_context);
        assert_int_equal(mink_batch_sweep_aabb(ctx, pairs, 64, 1.0f, got), MINK_OK);
        assert_memory_equal(got, want, sizeof got);
    }
    mink_context_destroy(ctx);
    free(plan.fail);
}

static void world_lost_device_map(void **state) {
    (void)state;
    world_lost_device(MINK_TRANSFER_MAP);
}

static void world_lost_device_copy(void **state) {
    (void)state;
    world_lost_device(MINK_TRANSFER_COPY);
}

/* A context builds the world's part of the program and checks the world's records against the
 * device at its first world: each of those calls failing fails the create with a status and a
 * message, keeps nothing of the part, and the next create builds and checks again and succeeds. */
static void world_layout_check_faults(void **state) {
    (void)state;
    long at_start = mink__seam_live();
    mink_context *ctx = opencl_context(0, MINK_TRANSFER_AUTO);
    mink_aabb_pair pair;
    mink_hit hit;
    mink_sample_aabb_pairs(7, 1, &pair);
    assert_int_equal(mink_batch_sweep_aabb(ctx, &pair, 1, 1.0f, &hit), MINK_OK); /* the box kernel, built */
    long with_context = mink__seam_live();
    /* What the world's part holds, kept by a context once built and checked whole. */
    mink_context *other = opencl_context(0, MINK_TRANSFER_AUTO);
    mink_world *w = NULL;
    long before = mink__seam_live();
    assert_int_equal(mink_world_create(other, NULL, &w), MINK_OK);
    mink_world_destroy(w);
    long part = mink__seam_live() - before;
    mink_context_destroy(other);
    int kept = 0;
    for (unsigned long n = 1;; n++) {
        w = NULL;
        mink__seam_arm(n, 0, FAULT);
        mink_status s = mink_world_create(ctx, NULL, &w);
        mink__seam_arm(0, 0, 0);
        if (s == MINK_OK) { /* n is past the check's calls: it passed, once and for all */
            assert_true(n > 3);
            mink_world_destroy(w);
            break;
        }
        assert_null(w);
        assert_true(mink_context_error(ctx)[0] != '\0');
        /* A call after the build and the checks failed (the world's own arrays): the part stays. */
        kept = kept || mink__seam_live() == with_context + part;
        assert_int_equal(mink__seam_live(), with_context + (kept ? part : 0));
    }
    assert_true(kept || part == 0);
    mink_context_destroy(ctx);
    assert_int_equal(mink__seam_live(), at_start);
}

/* The test-only build's other seam (host/program.c): a kernel source that does not build. */
extern const char *mink__test_kernel_source;

/* The program is built on the device's first use: a program that does not build fails that call
 * (a batch, a world) with the compiler's log, and the next call tries again; the scalar path of an
 * AUTO context answers small batches without building anything. */
static void told(const mink_build_info *b, void *user) {
    if (b->done) *(mink_status *)user = b->status;
}

static void opencl_build_failure_carries_the_log(void **state) {
    (void)state;
    mink_context *ctx = NULL;
    mink__test_kernel_source = "__kernel void broken(__global float *x) { x[0] = undefined_name; }\n";
    mink_status heard = MINK_OK; /* on_build hears the failure too */
    mink_context_desc desc = {.backend = MINK_BACKEND_OPENCL, .on_build = told, .on_build_user = &heard};
    assert_int_equal(mink_context_create(&desc, &ctx), MINK_OK);
    mink_aabb_pair pairs[64];
    mink_hit hits[64];
    mink_sample_aabb_pairs(3, 64, pairs);
    mink_status s = mink_batch_sweep_aabb(ctx, pairs, 64, 1.0f, hits);
    assert_int_equal(s, MINK_ERR_BUILD);
    assert_int_equal(heard, MINK_ERR_BUILD);
    assert_non_null(strstr(mink_last_error(), "clBuildProgram failed: CL_BUILD_PROGRAM_FAILURE"));
    assert_non_null(strstr(mink_last_error(), "undefined_name")); /* from the compiler's log */
    assert_non_null(strstr(mink_context_error(ctx), "undefined_name"));
    mink_world *w = NULL;
    assert_int_equal(mink_world_create(ctx, NULL, &w), MINK_ERR_BUILD);
    assert_null(w);
    mink__test_kernel_source = NULL; /* the next call builds it */
    assert_int_equal(mink_batch_sweep_aabb(ctx, pairs, 64, 1.0f, hits), MINK_OK);
    assert_int_equal(heard, MINK_OK);
    mink_context_destroy(ctx);
    /* AUTO: a first batch of a few pairs takes the scalar path and builds nothing. */
    mink__test_kernel_source = "__kernel void broken(__global float *x) { x[0] = undefined_name; }\n";
    assert_int_equal(mink_context_create(NULL, &ctx), MINK_OK);
    int device = mink_context_backend(ctx) == MINK_BACKEND_OPENCL;
    assert_int_equal(mink_batch_sweep_aabb(ctx, pairs, 1, 1.0f, hits), MINK_OK);
    if (device) assert_int_equal(mink_batch_sweep_aabb(ctx, pairs, 64, 1.0f, hits), MINK_ERR_BUILD);
    mink__test_kernel_source = NULL;
    mink_context_destroy(ctx);
    assert_int_equal(mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_OPENCL}, &ctx), MINK_OK);
    assert_int_equal(mink_batch_sweep_aabb(ctx, pairs, 64, 1.0f, hits), MINK_OK);
    mink_context_destroy(ctx);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(context_creation),
        cmocka_unit_test(opencl_build_failure_carries_the_log),
        cmocka_unit_test(batch_map),
        cmocka_unit_test(batch_copy),
        cmocka_unit_test(world_faults),
        cmocka_unit_test(world_layout_check_faults),
        cmocka_unit_test(late_part_faults),
        cmocka_unit_test(world_lost_device_map),
        cmocka_unit_test(world_lost_device_copy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
