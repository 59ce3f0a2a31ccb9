/* bench/bench_world.c — world steps of a bullet-hell scene, scalar and OpenCL side by side.
 *
 * The scene at n bodies: 90% small fast circles (bullets: they meet walls and crates, not each
 * other, and bounce), 8% crates (dynamic boxes, slow), 2% thin static walls, in a closed square
 * arena of 16 units of area per body. For each size prints the median milliseconds per step over
 * the measured steps, with the shares of bounds, broadphase, narrowphase, resolution and transfer
 * (the step's count read-backs plus reading every position back), the pairs and events per step,
 * and the bytes the world holds per body. Both paths run the same steps and are compared bit for
 * bit at the end. With `trace`, also prints every measured step's milliseconds, pairs and events
 * after its row: this VM's speed changes by a third from one second to the next under the same
 * work, and the trace shows it.
 * The scene runs WARM_UP_STEPS steps before those measured.
 * Usage: bench_world [MAX_BODIES] [STEPS] [trace] [scalar=N]      (defaults 1000000, 5)
 * scalar=N runs the scalar path (and the comparison) only up to N bodies: a GPU's largest scenes
 * would wait minutes for it. from=N starts at N bodies instead of 10^4 (one size: from=MAX_BODIES).
 * far=X starts one bullet at (X, 0), far outside the arena.
 * crates=polygon or crates=capsule makes the crates pentagons or capsules of about their size:
 * the world then runs its kernels built for polygons, or for polygons and capsules.
 *
 * `bench_world arena [MAX_BODIES] [STEPS] [scalar=N]` runs the crowd issue's arena instead (bench/arena.h),
 * scenes A and B side by side at 10^4 .. MAX_BODIES: median ms a step, the most candidate pairs a
 * step held, kinetic energy end / start, the deepest overlap left between bodies, and bodies that
 * crossed a wall. scene=A or scene=B runs that scene alone. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arena.h"
#include "bench_util.h"
#include "mink/sample.h"
#include "mink/world.h"

static mink_shape box_shape(float hw, float hh) {
    mink_shape s = {.type = MINK_SHAPE_AABB};
    s.geom.aabb.min = mink_v2(-hw, -hh);
    s.geom.aabb.max = mink_v2(hw, hh);
    return s;
}

/* far=X: one bullet starts at (X, 0), far outside the arena (0: none). */
static float far_x = 0.0f;
/* from=N: the first size (then ten times as many, up to MAX_BODIES). */
static size_t least = 10000;
/* scene=A or scene=B: the arena's scenes run (bit 0: A, bit 1: B). */
static int arena_scenes = 3;
/* crates=: the crates' shape (MINK_SHAPE_AABB, _POLYGON or _CAPSULE). */
static uint32_t crate_type = MINK_SHAPE_AABB;

static mink_shape crate_shape(void) {
    mink_shape s = box_shape(0.5f, 0.5f);
    if (crate_type == MINK_SHAPE_POLYGON) {
        mink_vec2 pent[5];
        for (int k = 0; k < 5; k++) pent[k] = mink_v2(0.6f * cosf(1.2566371f * (float)k), 0.6f * sinf(1.2566371f * (float)k));
        s.type = MINK_SHAPE_POLYGON;
        mink_polygon_make(pent, 5, mink_v2(0, 0), 0.0f, &s.geom.polygon);
    } else if (crate_type == MINK_SHAPE_CAPSULE) {
        s.type = MINK_SHAPE_CAPSULE;
        s.geom.capsule = (mink_capsule){{-0.3f, 0.0f}, {0.3f, 0.0f}, 0.4f};
    }
    return s;
}

static mink_status build_scene(mink_world *w, size_t n) {
    mink_shape shapes[5] = {{.type = MINK_SHAPE_CIRCLE}, crate_shape(), box_shape(4.0f, 0.1f),
                            box_shape(0.1f, 4.0f), {0}};
    shapes[0].geom.circle.radius = 0.1f;
    float side = sqrtf((float)n * 16.0f);
    shapes[4] = box_shape(side * 0.5f + 1.0f, 0.5f);
    uint32_t ids[6];
    mink_status st = mink_world_add_shapes(w, shapes, 5, ids);
    if (st != MINK_OK) return st;
    shapes[0] = box_shape(0.5f, side * 0.5f + 1.0f);
    st = mink_world_add_shapes(w, shapes, 1, &ids[5]);
    if (st != MINK_OK) return st;

    uint32_t *shape = malloc(n * 4), *response = malloc(n * 4), *category = malloc(n * 4), *mask = malloc(n * 4);
    uint32_t *handles = malloc(n * 4);
    mink_vec2 *pos = malloc(n * 8), *vel = malloc(n * 8);
    float *inv_mass = malloc(n * 4);
    if (!shape || !response || !category || !mask || !handles || !pos || !vel || !inv_mass) {
        st = MINK_ERR_OUT_OF_MEMORY;
        goto done;
    }
    mink_rng rng = mink_rng_seed(2026);
    const float dt = 1.0f / 60.0f;
    for (size_t k = 0; k < n; k++) {
        uint32_t kind = (uint32_t)(k % 50); /* 45 bullets, 4 crates, 1 wall in every 50 */
        pos[k] = mink_v2(mink_rng_float(&rng, -side * 0.5f, side * 0.5f), mink_rng_float(&rng, -side * 0.5f, side * 0.5f));
        float speed = kind < 45 ? mink_rng_float(&rng, 1.0f, 3.0f) / dt : (kind < 49 ? 0.5f / dt * 0.1f : 0.0f);
        float angle = mink_rng_float(&rng, 0.0f, 6.2831853f);
        vel[k] = mink_v2(speed * cosf(angle), speed * sinf(angle));
        shape[k] = kind < 45 ? ids[0] : kind < 49 ? ids[1] : (k / 50) % 2 ? ids[2] : ids[3];
        inv_mass[k] = kind < 49 ? 1.0f : 0.0f;
        response[k] = kind < 45 ? MINK_RESPONSE_BOUNCE : MINK_RESPONSE_SLIDE;
        category[k] = kind < 45 ? 2u : 1u;
        mask[k] = kind < 45 ? 1u : 0xffffffffu;
    }
    /* The arena: four walls around it. */
    if (n >= 4) {
        for (int k = 0; k < 4; k++) {
            shape[k] = k < 2 ? ids[4] : ids[5];
            pos[k] = k == 0 ? mink_v2(0, -side * 0.5f - 1.0f) : k == 1 ? mink_v2(0, side * 0.5f + 1.0f)
                   : k == 2 ? mink_v2(-side * 0.5f - 1.0f, 0) : mink_v2(side * 0.5f + 1.0f, 0);
            vel[k] = mink_v2(0, 0);
            inv_mass[k] = 0.0f;
            category[k] = 1u;
            mask[k] = 0xffffffffu;
            response[k] = MINK_RESPONSE_SLIDE;
        }
    }
    if (far_x != 0.0f && n > 5) pos[5] = mink_v2(far_x, 0.0f); /* body 5 is a bullet */
    mink_world_bodies b = {.count = n, .shape = shape, .position = pos, .velocity = vel, .inv_mass = inv_mass,
                           .response = response, .category = category, .mask = mask};
    st = mink_world_add(w, &b, handles);
done:
    free(shape), free(response), free(category), free(mask), free(handles), free(pos), free(vel), free(inv_mass);
    return st;
}

typedef struct figures {
    double step, bounds, broad, narrow, resolve, transfer;
    size_t pairs, events, bytes;
} figures;

/* Half a second of a 60 Hz game before the steps measured: on this VM the first 15 to 25 steps of
 * a new world took half again as long, in every trace. */
#define WARM_UP_STEPS 30

/* Runs `steps` steps after the warm-up; medians of each share. Leaves the positions in *out and,
 * with a trace, each step's time, pairs and events in *trace (ms/pairs/events, space-separated). */
static int run(mink_context *ctx, size_t n, int steps, figures *f, mink_vec2 **out, char *trace, size_t trace_size) {
    mink_world *w = NULL;
    if (mink_world_create(ctx, &(mink_world_desc){.initial_bodies = n}, &w) != MINK_OK || build_scene(w, n) != MINK_OK) {
        fprintf(stderr, "bench_world: %s\n", mink_last_error());
        mink_world_destroy(w);
        return 1;
    }
    mink_vec2 *pos = malloc(n * sizeof *pos);
    double *share[6];
    for (int s = 0; s < 6; s++) share[s] = calloc((size_t)steps, sizeof(double));
    memset(f, 0, sizeof *f);
    for (int s = -WARM_UP_STEPS; s < steps; s++) {
        if (mink_world_step(w, 1.0f / 60.0f) != MINK_OK) {
            fprintf(stderr, "bench_world: %s\n", mink_last_error());
            return 1;
        }
        mink_world_stats st = mink_world_get_stats(w);
        double t = bench_now_ms();
        mink_world_get(w, NULL, n, pos, NULL);
        double read = bench_now_ms() - t;
        if (s < 0) continue;
        share[0][s] = st.total_ms + read;
        share[1][s] = st.bounds_ms;
        share[2][s] = st.broadphase_ms;
        share[3][s] = st.narrowphase_ms;
        share[4][s] = st.resolution_ms;
        share[5][s] = st.transfer_ms + read;
        f->pairs = st.pairs;
        f->events = st.events;
        f->bytes = st.bytes;
        if (trace) {
            size_t used = strlen(trace);
            snprintf(trace + used, trace_size - used, " %.2f/%zu/%zu", share[0][s], st.pairs, st.events);
        }
    }
    double *fields[6] = {&f->step, &f->bounds, &f->broad, &f->narrow, &f->resolve, &f->transfer};
    for (int s = 0; s < 6; s++) {
        qsort(share[s], (size_t)steps, sizeof(double), bench_cmp_double);
        *fields[s] = share[s][steps / 2];
        free(share[s]);
    }
    *out = pos;
    mink_world_destroy(w);
    return 0;
}

/* ---- the crowd issue's arena: scenes A and B ------------------------------------------------- */

typedef struct arena_figures {
    double step, energy_ratio, deepest;
    size_t pairs, tunnelled;
} arena_figures;

/* Scene A or B at n bodies for `steps` steps (no warm-up: the scene's first steps are its hardest).
 * Positions of the bodies left in *out. */
static int run_arena(mink_context *ctx, size_t n, int b, int steps, arena_figures *f, mink_vec2 **out) {
    mink_world *w = NULL;
    arena a;
    if (mink_world_create(ctx, &(mink_world_desc){.initial_bodies = n + ARENA_WALLS + 4}, &w) != MINK_OK ||
        arena_build(w, n, b, 29, &a) != 0) {
        fprintf(stderr, "bench_world: %s\n", mink_last_error());
        mink_world_destroy(w);
        return 1;
    }
    mink_vec2 *pos = malloc(n * sizeof *pos), *prev = malloc(n * sizeof *prev), *vel = malloc(n * sizeof *vel);
    mink_vec2 *prev_vel = malloc(n * sizeof *prev_vel);
    double *ms = calloc((size_t)steps, sizeof(double));
    mink_world_get(w, a.handles, n, prev, prev_vel);
    double e0 = arena_energy(prev_vel, n);
    memset(f, 0, sizeof *f);
    int failed = 0;
    for (int s = 0; s < steps && !failed; s++) {
        if (mink_world_step(w, ARENA_DT) != MINK_OK) {
            fprintf(stderr, "bench_world: step %d: %s\n", s, mink_last_error());
            failed = 1;
            break;
        }
        mink_world_stats st = mink_world_get_stats(w);
        double t = bench_now_ms();
        mink_world_get(w, a.handles, n, pos, vel);
        ms[s] = st.total_ms + (bench_now_ms() - t);
        f->pairs = st.pairs > f->pairs ? st.pairs : f->pairs;
        for (size_t i = 0; i < n; i++) {
            double reach = hypot(prev_vel[i].x, prev_vel[i].y) * ARENA_DT + 0.1; /* + the push reach and more */
            f->tunnelled += (size_t)arena_tunnelled(&a, prev[i], pos[i], reach);
        }
        memcpy(prev, pos, n * sizeof *pos);
        memcpy(prev_vel, vel, n * sizeof *vel);
    }
    f->energy_ratio = failed ? 0.0 : arena_energy(vel, n) / e0;
    f->deepest = failed ? 0.0 : arena_deepest(&a, pos);
    qsort(ms, (size_t)steps, sizeof(double), bench_cmp_double);
    f->step = ms[steps / 2];
    free(ms), free(prev), free(vel), free(prev_vel);
    arena_free(&a);
    mink_world_destroy(w);
    if (failed) {
        free(pos);
        return 1;
    }
    *out = pos;
    return 0;
}

static int arena_main(size_t most, size_t scalar_most, int steps, mink_context **ctx) {
    printf("arena scenes (issue 29): 200 x 200, 204 walls, circles and boxes at 0.5-2 units a step, restitution 1;\n"
           "A: bodies meet walls only, B: also each other; median ms of %d steps, largest pair count, kinetic\n"
           "energy end / start, deepest overlap (fraction of the smaller body's half size), bodies tunnelled\n",
           steps);
    printf("%9s  %-5s %-7s %9s  %9s %10s %9s %10s  %s\n", "bodies", "scene", "path", "ms/step", "pairs", "energy",
           "deepest", "tunnelled", "same bits");
    for (size_t n = least; n <= most; n = n * 10 > most && n < most ? most : n * 10) { /* ending on MAX_BODIES */
        for (int b = 0; b < 2; b++) {
            if (!(arena_scenes >> b & 1)) continue;
            arena_figures f[2];
            mink_vec2 *pos[2] = {NULL, NULL};
            int first = n > scalar_most; /* the scalar path only up to scalar=N */
            int failed = 0;
            for (int c = first; c < 2 && !failed; c++) failed = run_arena(ctx[c], n, b, steps, &f[c], &pos[c]);
            if (failed) { /* said on stderr; a larger scene than the device holds, say: the next one may run */
                printf("%9zu  %-5s failed\n", n, b ? "B" : "A");
                free(pos[0]), free(pos[1]);
                continue;
            }
            int same = first || memcmp(pos[0], pos[1], n * sizeof(mink_vec2)) == 0;
            for (int c = first; c < 2; c++)
                printf("%9zu  %-5s %-7s %9.2f  %9zu %10.4f %9.4f %10zu  %s\n", n, b ? "B" : "A", c ? "opencl" : "scalar",
                       f[c].step, f[c].pairs, f[c].energy_ratio, f[c].deepest, f[c].tunnelled,
                       c ? (first ? "-" : same ? "yes" : "NO") : "");
            fflush(stdout);
            free(pos[0]), free(pos[1]);
            if (!same) return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv) {
    int arena_mode = argc > 1 && strcmp(argv[1], "arena") == 0;
    if (arena_mode) argc--, argv++;
    size_t scalar_most = (size_t)-1;
    for (; argc > 1 && strchr(argv[argc - 1], '=') != NULL; argc--)
        if (strncmp(argv[argc - 1], "scalar=", 7) == 0)
            scalar_most = (size_t)strtoull(argv[argc - 1] + 7, NULL, 10);
        else if (strncmp(argv[argc - 1], "from=", 5) == 0)
            least = (size_t)strtoull(argv[argc - 1] + 5, NULL, 10);
        else if (strncmp(argv[argc - 1], "far=", 4) == 0)
            far_x = strtof(argv[argc - 1] + 4, NULL);
        else if (strcmp(argv[argc - 1], "crates=polygon") == 0)
            crate_type = MINK_SHAPE_POLYGON;
        else if (strcmp(argv[argc - 1], "crates=capsule") == 0)
            crate_type = MINK_SHAPE_CAPSULE;
        else if (strcmp(argv[argc - 1], "scene=A") == 0 || strcmp(argv[argc - 1], "scene=B") == 0)
            arena_scenes = argv[argc - 1][6] == 'A' ? 1 : 2;
        else
            argc = 0; /* the usage below */
    size_t most = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 1000000;
    int steps = argc > 2 ? atoi(argv[2]) : 5;
    int tracing = argc > 3 && strcmp(argv[3], "trace") == 0;
    if (argc < 1 || most < 100 || least < 100 || least > most || steps < 1 || steps > 100000 ||
        (argc > 3 && (!tracing || arena_mode))) {
        fprintf(stderr, "usage: bench_world [MAX_BODIES >= 100] [STEPS 1..100000] [trace] [scalar=N] [from=N >= 100] [far=X]\n"
                        "                   [crates=polygon|crates=capsule]\n"
                        "       bench_world arena [MAX_BODIES >= 100] [STEPS 1..100000] [scalar=N] [from=N >= 100]\n"
                        "                         [scene=A|scene=B]\n");
        return 2;
    }
    size_t trace_size = tracing ? (size_t)steps * 40 + 1 : 0;
    char *trace[2] = {tracing ? malloc(trace_size) : NULL, tracing ? malloc(trace_size) : NULL};
    if (tracing && (!trace[0] || !trace[1])) {
        fprintf(stderr, "bench_world: out of memory\n");
        return 1;
    }
    mink_context *ctx[2] = {NULL, NULL};
    if (mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR}, &ctx[0]) != MINK_OK ||
        mink_context_create(NULL, &ctx[1]) != MINK_OK) {
        fprintf(stderr, "bench_world: %s\n", mink_last_error());
        return 1;
    }
    printf("device: %s\n", mink_context_device(ctx[1]));
    if (arena_mode) return arena_main(most, scalar_most, steps, ctx);
    printf("bullet-hell scene: 90%% bullets, 8%% crates (%s), 2%% walls; dt 1/60; median of %d steps after %d warm-up "
           "steps\n", crate_type == MINK_SHAPE_POLYGON ? "pentagons" : crate_type == MINK_SHAPE_CAPSULE ? "capsules" : "boxes",
           steps, WARM_UP_STEPS);
    printf("%9s  %-7s %9s  %8s %8s %8s %8s %8s  %9s %8s %10s  %s\n", "bodies", "path", "ms/step", "bounds", "broad",
           "narrow", "resolve", "transfer", "pairs", "events", "bytes/body", "same bits");
    for (size_t n = least; n <= most; n = n * 10 > most && n < most ? most : n * 10) { /* ending on MAX_BODIES */
        figures f[2];
        mink_vec2 *pos[2] = {NULL, NULL};
        int first = n > scalar_most;
        for (int c = first; c < 2; c++) {
            if (trace[c]) trace[c][0] = '\0';
            if (run(ctx[c], n, steps, &f[c], &pos[c], trace[c], trace_size) != 0) return 1;
        }
        int same = first || memcmp(pos[0], pos[1], n * sizeof(mink_vec2)) == 0;
        for (int c = first; c < 2; c++)
            printf("%9zu  %-7s %9.2f  %8.2f %8.2f %8.2f %8.2f %8.2f  %9zu %8zu %10.0f  %s\n", n, c ? "opencl" : "scalar",
                   f[c].step, f[c].bounds, f[c].broad, f[c].narrow, f[c].resolve, f[c].transfer, f[c].pairs,
                   f[c].events, (double)f[c].bytes / (double)n, c ? (first ? "-" : same ? "yes" : "NO") : "");
        for (int c = first; c < 2 && tracing; c++)
            printf("%9zu  %-7s steps (ms/pairs/events):%s\n", n, c ? "opencl" : "scalar", trace[c]);
        free(pos[0]), free(pos[1]);
        if (!same) return 1;
    }
    free(trace[0]), free(trace[1]);
    mink_context_destroy(ctx[0]);
    mink_context_destroy(ctx[1]);
    return 0;
}
