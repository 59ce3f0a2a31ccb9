/* bench/bench_query.c — ray casts into a world, mink's two paths beside the peers Debian ships.
 *
 * Worlds of 10^4 .. MAX_BODIES static bodies (70% circles of radius U(0.1, 0.5), 30% boxes of half
 * extents U(0.1, 0.5), 16 units of area a body), and RAYS rays from uniform points in random
 * directions, U(0, 20) long (lasers across a screen). For each world and path: rays per second
 * (the median of REPS calls, with the slowest and fastest), one call's milliseconds, the set-up's
 * milliseconds (mink: the grid over the bodies that the first call builds, its time less a later
 * call's; kept until the bodies change, so a step costs one; the peers: building their trees, not
 * in their rays/s either), how many rays hit, and for the peers their agreement with mink: the same body hit, t within 1e-4, or both
 * none. Rays that start inside a body are left out of the agreement (mink answers OVERLAP, the
 * peers ignore the body they start in). mink's two paths are compared bit for bit.
 * Peers: Box2D 2.4's b2World::RayCast (closest fixture) and Chipmunk 7's cpSpaceSegmentQueryFirst,
 * on the same bodies, when built in.
 * Usage: bench_query [MAX_BODIES] [RAYS] [REPS]      (defaults 1000000, 100000, 3)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "mink/sample.h"
#include "mink/world.h"
#ifdef MINK_BENCH_BOX2D
#include "peer_box2d.h"
#endif
#ifdef MINK_BENCH_CHIPMUNK
#include "peer_chipmunk.h"
#endif

typedef struct scene {
    size_t n, rays;
    float *x, *y, *hx, *hy; /* hy 0: a circle of radius hx */
    mink_ray *ray;
} scene;

static int make_scene(scene *s, size_t n, size_t rays, uint64_t seed) {
    mink_rng rng = mink_rng_seed(seed);
    float side = sqrtf((float)n * 16.0f);
    s->n = n, s->rays = rays;
    s->x = malloc(n * 4), s->y = malloc(n * 4), s->hx = malloc(n * 4), s->hy = malloc(n * 4);
    s->ray = malloc(rays * sizeof *s->ray);
    if (!s->x || !s->y || !s->hx || !s->hy || !s->ray) return 0;
    for (size_t k = 0; k < n; k++) {
        s->x[k] = mink_rng_float(&rng, -side * 0.5f, side * 0.5f);
        s->y[k] = mink_rng_float(&rng, -side * 0.5f, side * 0.5f);
        int box = mink_rng_u32(&rng) % 10 < 3;
        s->hx[k] = mink_rng_float(&rng, 0.1f, 0.5f);
        s->hy[k] = box ? mink_rng_float(&rng, 0.1f, 0.5f) : 0.0f;
    }
    for (size_t k = 0; k < rays; k++) {
        float a = mink_rng_float(&rng, 0.0f, 6.2831853f), l = mink_rng_float(&rng, 0.0f, 20.0f);
        s->ray[k].origin = mink_v2(mink_rng_float(&rng, -side * 0.5f, side * 0.5f),
                                   mink_rng_float(&rng, -side * 0.5f, side * 0.5f));
        s->ray[k].translation = mink_v2(l * cosf(a), l * sinf(a));
    }
    return 1;
}

static void free_scene(scene *s) {
    free(s->x), free(s->y), free(s->hx), free(s->hy), free(s->ray);
}

/* The scene's bodies in a mink world: one shape a body (each has its own size). */
static mink_world *mink_scene(mink_context *ctx, const scene *s) {
    mink_world *w = NULL;
    mink_shape *shapes = malloc(s->n * sizeof *shapes);
    uint32_t *ids = malloc(s->n * 4), *handles = malloc(s->n * 4);
    mink_vec2 *pos = malloc(s->n * sizeof *pos);
    float *inv = calloc(s->n, 4);
    int ok = shapes && ids && handles && pos && inv && mink_world_create(ctx, &(mink_world_desc){.initial_bodies = s->n}, &w) == MINK_OK;
    for (size_t k = 0; ok && k < s->n; k++) {
        memset(&shapes[k], 0, sizeof shapes[k]);
        if (s->hy[k] > 0.0f) {
            shapes[k].type = MINK_SHAPE_AABB;
            shapes[k].geom.aabb.min = mink_v2(-s->hx[k], -s->hy[k]);
            shapes[k].geom.aabb.max = mink_v2(s->hx[k], s->hy[k]);
        } else {
            shapes[k].type = MINK_SHAPE_CIRCLE;
            shapes[k].geom.circle.radius = s->hx[k];
        }
        pos[k] = mink_v2(s->x[k], s->y[k]);
    }
    ok = ok && mink_world_add_shapes(w, shapes, s->n, ids) == MINK_OK;
    mink_world_bodies b = {.count = s->n, .shape = ids, .position = pos, .inv_mass = inv};
    ok = ok && mink_world_add(w, &b, handles) == MINK_OK;
    if (!ok) {
        fprintf(stderr, "bench_query: %s\n", mink_last_error());
        mink_world_destroy(w);
        w = NULL;
    }
    free(shapes), free(ids), free(handles), free(pos), free(inv);
    return w;
}

typedef struct answer {
    int hit;   /* 1 a contact, 2 mink's OVERLAP (starts inside), 0 none */
    float t;
    size_t body;
} answer;

static void print_row(size_t n, const char *path, bench_figure f, double ms, double setup, size_t hits,
                      const char *agree) {
    printf("%9zu  %-9s %12.3g %12.3g %12.3g %10.2f %9.2f %8zu  %s\n", n, path, f.median, f.min, f.max, ms, setup, hits,
           agree);
}

#if defined(MINK_BENCH_BOX2D) || defined(MINK_BENCH_CHIPMUNK)
/* Agreement of a peer's answers with mink's, as "n / m" over the rays that start outside. With
 * BENCH_QUERY_DIFFS set in the environment, each ray they disagree on is printed. */
static void agreement(const char *peer_name, const scene *s, const answer *mink, const answer *peer, char *out,
                      size_t size) {
    size_t same = 0, counted = 0, rays = s->rays;
    for (size_t k = 0; k < rays; k++) {
        if (mink[k].hit == 2) continue;
        counted++;
        int agree = mink[k].hit == peer[k].hit &&
                    (mink[k].hit == 0 || (mink[k].body == peer[k].body && fabsf(mink[k].t - peer[k].t) <= 1e-4f));
        same += agree;
        if (!agree && getenv("BENCH_QUERY_DIFFS"))
            printf("  ray %zu (%a, %a) by (%a, %a): mink %d body %zu t %.9g, %s %d body %zu t %.9g\n", k,
                   (double)s->ray[k].origin.x, (double)s->ray[k].origin.y, (double)s->ray[k].translation.x,
                   (double)s->ray[k].translation.y, mink[k].hit, mink[k].body, (double)mink[k].t, peer_name,
                   peer[k].hit, peer[k].body, (double)peer[k].t);
    }
    snprintf(out, size, "%zu / %zu agree", same, counted);
}

/* A peer's closest hit of one ray: 1 and *t, *body on a hit, else 0. */
typedef int peer_ray_fn(void *peer, const mink_ray *ray, float *t, size_t *body);
#ifdef MINK_BENCH_BOX2D
static int box2d_ray(void *peer, const mink_ray *q, float *t, size_t *body) {
    return peer_box2d_world_ray(peer, q->origin.x, q->origin.y, q->translation.x, q->translation.y, t, body);
}
#endif
#ifdef MINK_BENCH_CHIPMUNK
static int chipmunk_ray(void *peer, const mink_ray *q, float *t, size_t *body) {
    return peer_chipmunk_space_ray(peer, q->origin.x, q->origin.y, q->translation.x, q->translation.y, t, body);
}
#endif

/* The scene's rays through a peer, ray by ray, timed reps times: its row, with its agreement. */
static int run_peer(const char *name, peer_ray_fn *ray, void *it, double setup, const scene *s, const answer *mine,
                    answer *peer, double *ms, int reps) {
    char agree[64];
    size_t hit = 0;
    for (int r = 0; r < reps; r++) {
        double t0 = bench_now_ms();
        for (size_t k = 0; k < s->rays; k++) peer[k].hit = ray(it, &s->ray[k], &peer[k].t, &peer[k].body);
        ms[r] = bench_now_ms() - t0;
    }
    for (size_t k = 0; k < s->rays; k++) hit += peer[k].hit != 0;
    agreement(name, s, mine, peer, agree, sizeof agree);
    bench_figure f = bench_summarize(ms, reps, s->rays);
    print_row(s->n, name, f, (double)s->rays / f.median * 1e3, setup, hit, agree);
    return 0;
}
#endif

static int run(mink_context **ctx, size_t n, size_t rays, int reps) {
    scene s;
    int failed = !make_scene(&s, n, rays, 2026 + n);
    mink_world_hit *hits[2] = {malloc(rays * sizeof(mink_world_hit)), malloc(rays * sizeof(mink_world_hit))};
    answer *mine = malloc(rays * sizeof *mine), *peer = malloc(rays * sizeof *peer);
    double *ms = malloc((size_t)reps * sizeof *ms);
    failed |= !hits[0] || !hits[1] || !mine || !peer || !ms;
    for (int c = 0; c < 2 && !failed; c++) {
        mink_world *w = mink_scene(ctx[c], &s);
        failed = w == NULL;
        double first = 0;
        for (int r = -1; r < reps && !failed; r++) { /* r -1: the first call, which builds the grid */
            double t0 = bench_now_ms();
            failed = mink_world_cast_rays(w, s.ray, rays, NULL, hits[c]) != MINK_OK;
            if (r < 0) first = bench_now_ms() - t0;
            else ms[r] = bench_now_ms() - t0;
        }
        if (failed) {
            fprintf(stderr, "bench_query: %s\n", mink_last_error());
            break;
        }
        size_t hit = 0;
        for (size_t k = 0; k < rays; k++) {
            mink_hit h = hits[c][k].hit;
            hit += h.flags != 0;
            mine[k] = (answer){h.flags == 0 ? 0 : (h.flags & MINK_HIT_OVERLAP) ? 2 : 1, h.t,
                               h.flags ? mink_world_slot(hits[c][k].body) : 0};
        }
        double median_ms = 0;
        bench_figure f = bench_summarize(ms, reps, rays);
        median_ms = (double)rays / f.median * 1e3;
        print_row(n, c == 0 ? "scalar" : "opencl", f, median_ms, first - median_ms, hit,
                  c == 0 ? "" : memcmp(hits[0], hits[1], rays * sizeof(mink_world_hit)) == 0 ? "same bits" : "DIFFERENT BITS");
        if (c == 1 && memcmp(hits[0], hits[1], rays * sizeof(mink_world_hit)) != 0) failed = 1;
        mink_world_destroy(w);
    }
#ifdef MINK_BENCH_BOX2D
    if (!failed) {
        double t0 = bench_now_ms();
        peer_box2d_world *b = peer_box2d_world_create(s.x, s.y, s.hx, s.hy, n);
        double setup = bench_now_ms() - t0;
        failed = b == NULL || run_peer("box2d", box2d_ray, b, setup, &s, mine, peer, ms, reps);
        peer_box2d_world_destroy(b);
    }
#endif
#ifdef MINK_BENCH_CHIPMUNK
    if (!failed) {
        double t0 = bench_now_ms();
        peer_chipmunk_space *cp = peer_chipmunk_space_create(s.x, s.y, s.hx, s.hy, n);
        double setup = bench_now_ms() - t0;
        failed = cp == NULL || run_peer("chipmunk", chipmunk_ray, cp, setup, &s, mine, peer, ms, reps);
        peer_chipmunk_space_destroy(cp);
    }
#endif
    free(hits[0]), free(hits[1]), free(mine), free(peer), free(ms);
    free_scene(&s);
    return failed;
}

int main(int argc, char **argv) {
    size_t most = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 1000000;
    size_t rays = argc > 2 ? (size_t)strtoull(argv[2], NULL, 10) : 100000;
    int reps = argc > 3 ? atoi(argv[3]) : 3;
    if (most < 100 || rays < 1 || reps < 1 || reps > 1000) {
        fprintf(stderr, "usage: bench_query [MAX_BODIES >= 100] [RAYS >= 1] [REPS 1..1000]\n");
        return 2;
    }
    mink_context *ctx[2] = {NULL, NULL};
    if (mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR}, &ctx[0]) != MINK_OK ||
        mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_OPENCL}, &ctx[1]) != MINK_OK) {
        fprintf(stderr, "bench_query: %s\n", mink_last_error());
        mink_context_destroy(ctx[0]);
        return 1;
    }
    printf("ray casts into worlds of static circles and boxes, %zu rays U(0, 20) long; median of %d calls\n", rays,
           reps);
    printf("   bodies  path       rays/s med   rays/s min   rays/s max    ms/call  setup ms     hits  agreement\n");
    int failed = 0;
    for (size_t n = most < 10000 ? most : 10000; n <= most && !failed; n *= 10) failed = run(ctx, n, rays, reps);
    mink_context_destroy(ctx[0]);
    mink_context_destroy(ctx[1]);
    if (!failed) printf("bench_query: ok\n");
    return failed;
}
