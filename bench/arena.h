/* bench/arena.h — the crowd issue's arena (issue 29), built once for bench_world and the tests, and
 * the measures the issue asks of it: kinetic energy, the deepest overlap between bodies, bodies
 * that crossed a wall.
 *
 * A 200 × 200 arena: 4 boundary walls and 200 static walls 0.1 thick, 5 to 20 long, horizontal or
 * vertical; n bodies, 90 % circles of radius U(0.05, 0.2), 10 % boxes of half-extents
 * U(0.05, 0.15) (each drawn from 256 sizes, so the shape table stays small), starting clear of the
 * walls, moving U(0.5, 2) units a step in a random direction; restitution 1 (BOUNCE), inverse mass
 * 1, dt 1/60. Scene A: bodies meet walls only. Scene B: bodies also meet each other.
 * The measures are computed here in double precision from positions, apart from the library. */
#ifndef MINK_BENCH_ARENA_H
#define MINK_BENCH_ARENA_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mink/sample.h"
#include "mink/world.h"

#define ARENA_HALF 100.0f
#define ARENA_WALLS 200
#define ARENA_DT (1.0f / 60.0f)

typedef struct arena {
    size_t n;              /* moving bodies */
    uint32_t *handles;     /* theirs */
    mink_aabb *shape;      /* each body's shape about its position (a circle: its box, radius = half width) */
    int *is_circle;
    mink_aabb wall[ARENA_WALLS + 4]; /* the walls in the world */
    size_t walls;
} arena;

static inline mink_shape arena_box(float hw, float hh) {
    mink_shape s = {.type = MINK_SHAPE_AABB};
    s.geom.aabb.min = mink_v2(-hw, -hh);
    s.geom.aabb.max = mink_v2(hw, hh);
    return s;
}

static inline int arena_boxes_meet(mink_aabb a, mink_aabb b) {
    return a.min.x < b.max.x && b.min.x < a.max.x && a.min.y < b.max.y && b.min.y < a.max.y;
}

static inline void arena_free(arena *a) {
    free(a->handles), free(a->shape), free(a->is_circle);
    memset(a, 0, sizeof *a);
}

/* Adds the scene (b: bodies meet each other) to an empty world. 0 on success. */
static inline int arena_build(mink_world *w, size_t n, int b, uint64_t seed, arena *a) {
    memset(a, 0, sizeof *a);
    mink_rng rng = mink_rng_seed(seed);
    /* Shapes: 256 circle radii, 256 box sizes (16 × 16), two wall lengths' worth of walls drawn below. */
    mink_shape *shapes = malloc(512 * sizeof *shapes);
    uint32_t *ids = malloc(512 * 4);
    a->n = n;
    a->handles = malloc((n ? n : 1) * 4);
    a->shape = malloc((n ? n : 1) * sizeof *a->shape);
    a->is_circle = malloc((n ? n : 1) * sizeof *a->is_circle);
    uint32_t *shape_of = malloc((n ? n : 1) * 4), wall_shape[ARENA_WALLS + 4], wall_handle[ARENA_WALLS + 4];
    mink_vec2 *pos = malloc((n ? n : 1) * 8), *vel = malloc((n ? n : 1) * 8), wall_pos[ARENA_WALLS + 4];
    float *restitution = malloc((n ? n : 1) * 4), wall_inv[ARENA_WALLS + 4];
    uint32_t *response = malloc((n ? n : 1) * 4), *category = malloc((n ? n : 1) * 4), *masks = malloc((n ? n : 1) * 4);
    int ok = shapes && ids && a->handles && a->shape && a->is_circle && shape_of && pos && vel && restitution &&
             response && category && masks;
    for (int k = 0; k < 256 && ok; k++) {
        shapes[k] = (mink_shape){.type = MINK_SHAPE_CIRCLE};
        shapes[k].geom.circle.radius = 0.05f + 0.15f * ((float)k + 0.5f) / 256.0f;
        shapes[256 + k] = arena_box(0.05f + 0.1f * ((float)(k % 16) + 0.5f) / 16.0f,
                                    0.05f + 0.1f * ((float)(k / 16) + 0.5f) / 16.0f);
    }
    ok = ok && mink_world_add_shapes(w, shapes, 512, ids) == MINK_OK;
    /* Walls: the boundary (1 thick, outside the arena), then 200 inside. */
    mink_shape wall_shapes[ARENA_WALLS + 4];
    const float H = ARENA_HALF;
    wall_shapes[0] = wall_shapes[1] = arena_box(H + 1.0f, 0.5f);
    wall_shapes[2] = wall_shapes[3] = arena_box(0.5f, H + 1.0f);
    wall_pos[0] = mink_v2(0.0f, -H - 0.5f), wall_pos[1] = mink_v2(0.0f, H + 0.5f);
    wall_pos[2] = mink_v2(-H - 0.5f, 0.0f), wall_pos[3] = mink_v2(H + 0.5f, 0.0f);
    for (int k = 4; k < ARENA_WALLS + 4; k++) {
        float half = mink_rng_float(&rng, 2.5f, 10.0f);
        int horizontal = mink_rng_u32(&rng) & 1u;
        wall_shapes[k] = horizontal ? arena_box(half, 0.05f) : arena_box(0.05f, half);
        wall_pos[k] = mink_v2(mink_rng_float(&rng, -H + half, H - half), mink_rng_float(&rng, -H + half, H - half));
    }
    a->walls = ARENA_WALLS + 4;
    for (size_t k = 0; k < a->walls; k++) {
        mink_aabb s = wall_shapes[k].geom.aabb;
        a->wall[k] = (mink_aabb){mink_v2(s.min.x + wall_pos[k].x, s.min.y + wall_pos[k].y),
                                 mink_v2(s.max.x + wall_pos[k].x, s.max.y + wall_pos[k].y)};
        wall_inv[k] = 0.0f;
    }
    ok = ok && mink_world_add_shapes(w, wall_shapes, a->walls, wall_shape) == MINK_OK;
    mink_world_bodies walls = {.count = a->walls, .shape = wall_shape, .position = wall_pos, .inv_mass = wall_inv};
    ok = ok && mink_world_add(w, &walls, wall_handle) == MINK_OK;
    /* Bodies, each clear of every wall by 0.05. */
    for (size_t i = 0; i < n && ok; i++) {
        int circle = mink_rng_u32(&rng) % 10u != 0u;
        uint32_t k = mink_rng_u32(&rng) & 255u;
        shape_of[i] = ids[circle ? k : 256u + k];
        a->is_circle[i] = circle;
        mink_shape s = shapes[circle ? k : 256u + k];
        float r = s.geom.circle.radius;
        a->shape[i] = circle ? (mink_aabb){mink_v2(-r, -r), mink_v2(r, r)} : s.geom.aabb;
        for (int tries = 0;; tries++) {
            pos[i] = mink_v2(mink_rng_float(&rng, -H + 0.3f, H - 0.3f), mink_rng_float(&rng, -H + 0.3f, H - 0.3f));
            mink_aabb box = {mink_v2(a->shape[i].min.x + pos[i].x - 0.05f, a->shape[i].min.y + pos[i].y - 0.05f),
                             mink_v2(a->shape[i].max.x + pos[i].x + 0.05f, a->shape[i].max.y + pos[i].y + 0.05f)};
            int clear = 1;
            for (size_t k2 = 4; k2 < a->walls && clear; k2++) clear = !arena_boxes_meet(box, a->wall[k2]);
            if (clear || tries > 1000) break;
        }
        float speed = mink_rng_float(&rng, 0.5f, 2.0f) / ARENA_DT, angle = mink_rng_float(&rng, 0.0f, 6.2831853f);
        vel[i] = mink_v2(speed * cosf(angle), speed * sinf(angle));
        restitution[i] = 1.0f;
        response[i] = MINK_RESPONSE_BOUNCE;
        category[i] = b ? 1u : 2u; /* A: category 2 with mask 1 meets the walls (category 1) only */
        masks[i] = b ? 0xffffffffu : 1u;
    }
    mink_world_bodies bodies = {.count = n, .shape = shape_of, .position = pos, .velocity = vel,
                                .restitution = restitution, .response = response, .category = category, .mask = masks};
    ok = ok && mink_world_add(w, &bodies, a->handles) == MINK_OK;
    free(shapes), free(ids), free(shape_of), free(pos), free(vel), free(restitution), free(response), free(category);
    free(masks);
    if (!ok) arena_free(a);
    return ok ? 0 : 1;
}

/* Σ ½ |v|² (every inverse mass is 1). */
static inline double arena_energy(const mink_vec2 *vel, size_t n) {
    double e = 0.0;
    for (size_t i = 0; i < n; i++) e += 0.5 * ((double)vel[i].x * vel[i].x + (double)vel[i].y * vel[i].y);
    return e;
}

/* How deep two bodies overlap (<= 0: apart), exactly for circles and boxes. */
static inline double arena_depth(const arena *a, const mink_vec2 *pos, size_t i, size_t j) {
    mink_aabb si = a->shape[i], sj = a->shape[j];
    double ri = 0.5 * (si.max.x - si.min.x), rj = 0.5 * (sj.max.x - sj.min.x);
    double dx = (double)pos[j].x - pos[i].x, dy = (double)pos[j].y - pos[i].y;
    if (a->is_circle[i] && a->is_circle[j]) return ri + rj - sqrt(dx * dx + dy * dy);
    if (!a->is_circle[i] && !a->is_circle[j]) {
        double ox = fmin(pos[i].x + (double)si.max.x, pos[j].x + (double)sj.max.x) -
                    fmax(pos[i].x + (double)si.min.x, pos[j].x + (double)sj.min.x);
        double oy = fmin(pos[i].y + (double)si.max.y, pos[j].y + (double)sj.max.y) -
                    fmax(pos[i].y + (double)si.min.y, pos[j].y + (double)sj.min.y);
        return fmin(ox, oy);
    }
    size_t c = a->is_circle[i] ? i : j, q = a->is_circle[i] ? j : i; /* circle c, box q */
    double r = 0.5 * (a->shape[c].max.x - a->shape[c].min.x);
    double lo_x = pos[q].x + (double)a->shape[q].min.x, hi_x = pos[q].x + (double)a->shape[q].max.x;
    double lo_y = pos[q].y + (double)a->shape[q].min.y, hi_y = pos[q].y + (double)a->shape[q].max.y;
    double cx = pos[c].x, cy = pos[c].y;
    if (cx > lo_x && cx < hi_x && cy > lo_y && cy < hi_y) /* centre inside: out by the nearest face */
        return r + fmin(fmin(cx - lo_x, hi_x - cx), fmin(cy - lo_y, hi_y - cy));
    double nx = fmin(fmax(cx, lo_x), hi_x) - cx, ny = fmin(fmax(cy, lo_y), hi_y) - cy;
    return r - sqrt(nx * nx + ny * ny);
}

static const mink_vec2 *arena_sort_pos; /* for the sort below; the measures run on one thread */
static const arena *arena_sort_scene;
static inline int arena_by_left(const void *x, const void *y) {
    size_t i = *(const size_t *)x, j = *(const size_t *)y;
    float li = arena_sort_pos[i].x + arena_sort_scene->shape[i].min.x;
    float lj = arena_sort_pos[j].x + arena_sort_scene->shape[j].min.x;
    return (li > lj) - (li < lj);
}

/* The deepest overlap between two bodies, as a fraction of the smaller one's half size (its radius,
 * or a box's smaller half-extent): sorted by left edge, each body against those whose left edge
 * lies within its width. */
static inline double arena_deepest(const arena *a, const mink_vec2 *pos) {
    size_t *order = malloc((a->n ? a->n : 1) * sizeof *order);
    double deepest = 0.0;
    if (order == NULL) return -1.0;
    for (size_t i = 0; i < a->n; i++) order[i] = i;
    arena_sort_pos = pos, arena_sort_scene = a;
    qsort(order, a->n, sizeof *order, arena_by_left);
    for (size_t k = 0; k < a->n; k++) {
        size_t i = order[k];
        float right = pos[i].x + a->shape[i].max.x;
        for (size_t m = k + 1; m < a->n && pos[order[m]].x + a->shape[order[m]].min.x < right; m++) {
            size_t j = order[m];
            double d = arena_depth(a, pos, i, j);
            if (d <= 0.0) continue;
            double hi = 0.5 * fmin(a->shape[i].max.x - a->shape[i].min.x, a->shape[i].max.y - a->shape[i].min.y);
            double hj = 0.5 * fmin(a->shape[j].max.x - a->shape[j].min.x, a->shape[j].max.y - a->shape[j].min.y);
            deepest = fmax(deepest, d / fmin(hi, hj));
        }
    }
    free(order);
    return deepest;
}

/* Whether body i, moving from p to q along a path no longer than `reach` (its speed × dt, plus its
 * push reach), went through a wall: it ends with its centre inside one, or p and q lie on two sides
 * of a wall's middle line, crossed inside the wall, and the shortest way round either end of the
 * line is longer than the reach. A bounce, a slide or a zigzag round a wall's end is not counted. */
static inline int arena_tunnelled(const arena *a, mink_vec2 p, mink_vec2 q, double reach) {
    for (size_t k = 0; k < a->walls; k++) {
        mink_aabb wl = a->wall[k];
        if (q.x > wl.min.x && q.x < wl.max.x && q.y > wl.min.y && q.y < wl.max.y) return 1;
        int horizontal = wl.max.x - wl.min.x > wl.max.y - wl.min.y;
        double line = horizontal ? 0.5 * ((double)wl.min.y + wl.max.y) : 0.5 * ((double)wl.min.x + wl.max.x);
        double a0 = horizontal ? p.y : p.x, a1 = horizontal ? q.y : q.x;
        if ((a0 - line) * (a1 - line) >= 0.0) continue;
        double f = (line - a0) / (a1 - a0);
        double at = horizontal ? p.x + f * ((double)q.x - p.x) : p.y + f * ((double)q.y - p.y);
        double lo = horizontal ? wl.min.x : wl.min.y, hi = horizontal ? wl.max.x : wl.max.y;
        if (at <= lo || at >= hi) continue;
        double round = INFINITY;
        for (int e = 0; e < 2; e++) {
            double ex = horizontal ? (e ? hi : lo) : line, ey = horizontal ? line : (e ? hi : lo);
            double d = hypot(p.x - ex, p.y - ey) + hypot(q.x - ex, q.y - ey);
            round = d < round ? d : round;
        }
        if (round > reach) return 1;
    }
    return 0;
}

#endif /* MINK_BENCH_ARENA_H */
