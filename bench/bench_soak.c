/* bench/bench_soak.c — a long run of one world: does anything drift?
 *
 * A closed arena of static walls holds n bodies: nine in ten small fast circles, the rest slow heavy
 * boxes, all bouncing without loss, so the scene stays as busy as it starts. Every 10 steps the oldest 1% of the circles are removed and as many added
 * (slots are reused), so the world's tables churn all run long. Every REPORT steps it prints the
 * milliseconds per step, the process's resident memory, the bytes the world holds, the slots in use,
 * and checks that no body was lost or duplicated (every handle we hold is alive and named once, the
 * world counts exactly those) and none left the arena or holds a NaN. At the end: the memory growth
 * from the first report, and "soak: ok" or what went wrong (exit 1).
 * Usage: bench_soak [BODIES] [STEPS] [scalar|opencl]      (defaults 100000, 10000, opencl) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "mink/sample.h"
#include "mink/world.h"

#define REPORT 1000

/* Resident memory in KiB (VmRSS), or 0 where /proc is missing. */
static long rss_kib(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld kB", &kib) == 1) break;
    if (f) fclose(f);
    return kib;
}

static mink_shape box(float hw, float hh) {
    mink_shape s = {.type = MINK_SHAPE_AABB};
    s.geom.aabb.min = mink_v2(-hw, -hh);
    s.geom.aabb.max = mink_v2(hw, hh);
    return s;
}

#define CHECK(call)                                                                                \
    do {                                                                                           \
        if ((call) != MINK_OK) {                                                                   \
            fprintf(stderr, "bench_soak: %s: %s\n", #call, mink_last_error());                     \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

typedef struct scene {
    float half;          /* the arena is [-half, half]^2 inside its walls */
    uint32_t bullet, crate;
    mink_rng rng;
} scene;

/* Adds count bodies (circles, or boxes when crates) at random places inside the arena. */
static void add_bodies(mink_world *w, scene *s, size_t count, int crates, uint32_t *handles) {
    uint32_t *shape = malloc(count * 4), *response = malloc(count * 4), *category = malloc(count * 4),
             *mask = malloc(count * 4);
    mink_vec2 *pos = malloc(count * sizeof *pos), *vel = malloc(count * sizeof *vel);
    float *inv_mass = malloc(count * sizeof *inv_mass);
    if (!shape || !response || !category || !mask || !pos || !vel || !inv_mass) {
        fprintf(stderr, "bench_soak: out of memory\n");
        exit(1);
    }
    for (size_t k = 0; k < count; k++) {
        float m = s->half - 1.0f, speed = crates ? 0.05f : mink_rng_float(&s->rng, 0.5f, 3.0f);
        float a = mink_rng_float(&s->rng, 0.0f, 6.2831853f);
        pos[k] = mink_v2(mink_rng_float(&s->rng, -m, m), mink_rng_float(&s->rng, -m, m));
        vel[k] = mink_v2(speed * cosf(a), speed * sinf(a));
        shape[k] = crates ? s->crate : s->bullet;
        response[k] = MINK_RESPONSE_BOUNCE;
        inv_mass[k] = crates ? 0.01f : 1.0f; /* heavy crates: bullets barely move them, so the scene keeps its state */
        category[k] = crates ? 1u : 2u;
        mask[k] = crates ? 0xffffffffu : 1u; /* bullets meet walls and crates, not each other */
    }
    mink_world_bodies b = {.count = count, .shape = shape, .position = pos, .velocity = vel, .inv_mass = inv_mass,
                           .response = response, .category = category, .mask = mask};
    CHECK(mink_world_add(w, &b, handles));
    free(shape), free(response), free(category), free(mask), free(pos), free(vel), free(inv_mass);
}

int main(int argc, char **argv) {
    size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000;
    long steps = argc > 2 ? strtol(argv[2], NULL, 10) : 10000;
    int opencl = !(argc > 3 && strcmp(argv[3], "scalar") == 0);
    if (n < 100 || steps < 1) {
        fprintf(stderr, "usage: bench_soak [BODIES >= 100] [STEPS] [scalar|opencl]\n");
        return 2;
    }
    mink_context *ctx;
    CHECK(mink_context_create(&(mink_context_desc){.backend = opencl ? MINK_BACKEND_OPENCL : MINK_BACKEND_SCALAR},
                              &ctx));
    mink_world *w;
    CHECK(mink_world_create(ctx, NULL, &w));

    scene s = {.half = sqrtf((float)n * 4.0f) * 0.5f, .rng = mink_rng_seed(99)};
    mink_shape shapes[4] = {{.type = MINK_SHAPE_CIRCLE}, box(0.3f, 0.3f), box(s.half + 1.0f, 0.5f),
                            box(0.5f, s.half + 1.0f)};
    shapes[0].geom.circle.radius = 0.1f;
    uint32_t ids[4];
    CHECK(mink_world_add_shapes(w, shapes, 4, ids));
    s.bullet = ids[0], s.crate = ids[1];
    uint32_t walls[4], wall_shape[4] = {ids[2], ids[2], ids[3], ids[3]};
    mink_vec2 wall_pos[4] = {{0, -s.half - 0.5f}, {0, s.half + 0.5f}, {-s.half - 0.5f, 0}, {s.half + 0.5f, 0}};
    float zero[4] = {0};
    CHECK(mink_world_add(w, &(mink_world_bodies){.count = 4, .shape = wall_shape, .position = wall_pos, .inv_mass = zero},
                         walls));

    size_t crates = n / 10, bullets = n - crates, churn = bullets / 100 ? bullets / 100 : 1;
    uint32_t *crate_h = malloc(crates * 4), *bullet_h = malloc(bullets * 4), *all = malloc(n * 4);
    mink_vec2 *pos = malloc(n * sizeof *pos);
    if (!crate_h || !bullet_h || !all || !pos) return fprintf(stderr, "bench_soak: out of memory\n"), 1;
    add_bodies(w, &s, crates, 1, crate_h);
    add_bodies(w, &s, bullets, 0, bullet_h);
    size_t oldest = 0; /* bullet_h is a ring: the next to go */

    printf("soak: %zu bodies (%zu bullets, %zu crates, 4 walls), %ld steps on %s; %zu bullets replaced every 10 steps\n",
           n, bullets, crates, steps, mink_context_device(ctx), churn);
    printf("%8s %10s %10s %12s %8s %8s %8s %8s %8s\n", "step", "ms/step", "rss MiB", "world bytes", "slots", "bodies",
           "pairs", "events", "escaped");
    long first_rss = 0;
    size_t first_bytes = 0, problems = 0, max_slots = 0;
    double t0 = bench_now_ms(), spent = 0;
    for (long step = 1; step <= steps; step++) {
        double t = bench_now_ms();
        CHECK(mink_world_step(w, 1.0f));
        spent += bench_now_ms() - t;
        if (step % 10 == 0) { /* the oldest bullets go, new ones come: their slots are reused */
            uint32_t *gone = malloc(churn * 4);
            for (size_t k = 0; k < churn; k++) gone[k] = bullet_h[(oldest + k) % bullets];
            CHECK(mink_world_remove(w, gone, churn));
            uint32_t *fresh = malloc(churn * 4);
            add_bodies(w, &s, churn, 0, fresh);
            for (size_t k = 0; k < churn; k++) bullet_h[(oldest + k) % bullets] = fresh[k];
            oldest = (oldest + churn) % bullets;
            free(gone), free(fresh);
        }
        if (step % REPORT != 0 && step != steps) continue;
        /* Lost or duplicated: every handle held is alive and named once (get refuses otherwise). */
        memcpy(all, crate_h, crates * 4);
        memcpy(all + crates, bullet_h, bullets * 4);
        mink_world_stats st = mink_world_get_stats(w);
        size_t escaped = 0;
        if (mink_world_get(w, all, n, pos, NULL) != MINK_OK) {
            printf("lost or duplicated: %s\n", mink_last_error());
            problems++;
        } else {
            for (size_t k = 0; k < n; k++)
                escaped += !(fabsf(pos[k].x) <= s.half && fabsf(pos[k].y) <= s.half); /* NaN counts */
        }
        if (st.bodies != n + 4) {
            printf("the world holds %zu bodies, not %zu\n", st.bodies, n + 4);
            problems++;
        }
        problems += escaped;
        if (st.slots > max_slots) max_slots = st.slots;
        long rss = rss_kib();
        if (first_rss == 0) first_rss = rss, first_bytes = st.bytes;
        long done = step % REPORT ? step % REPORT : REPORT;
        printf("%8ld %10.2f %10.1f %12zu %8zu %8zu %8zu %8zu %8zu\n", step, spent / (double)done, rss / 1024.0,
               st.bytes, st.slots, st.bodies, st.pairs, st.events, escaped);
        fflush(stdout);
        spent = 0;
    }
    long rss = rss_kib();
    mink_world_stats st = mink_world_get_stats(w);
    printf("soak: %.1f s; memory from the first report to the end: rss %+ld KiB, world %+ld bytes; slots at most %zu "
           "for %zu bodies\n",
           (bench_now_ms() - t0) / 1e3, rss - first_rss, (long)st.bytes - (long)first_bytes, max_slots, n + 4);
    printf(problems ? "soak: FAILED (%zu problems)\n" : "soak: ok (no body lost, duplicated or escaped)\n", problems);
    mink_world_destroy(w);
    mink_context_destroy(ctx);
    free(crate_h), free(bullet_h), free(all), free(pos);
    return problems ? 1 : 0;
}
