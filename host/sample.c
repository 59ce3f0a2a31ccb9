/* host/sample.c — deterministic sample batches (see mink/sample.h). */
#include <math.h>

#include "core/body.h"
#include "mink/sample.h"

mink_rng mink_rng_seed(uint64_t seed) {
    mink_rng rng = {0u, (seed << 1u) | 1u};
    mink_rng_u32(&rng);
    rng.state += 0x853c49e6748fea9bULL ^ seed;
    mink_rng_u32(&rng);
    return rng;
}

uint32_t mink_rng_u32(mink_rng *rng) {
    uint64_t old = rng->state;
    rng->state = old * 6364136223846793005ULL + rng->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
}

float mink_rng_float(mink_rng *rng, float lo, float hi) {
    float u = (float)(mink_rng_u32(rng) >> 8) * (1.0f / 16777216.0f);
    return lo + (hi - lo) * u;
}

static mink_aabb box_at(mink_vec2 c, float hw, float hh) {
    mink_aabb b = {{c.x - hw, c.y - hh}, {c.x + hw, c.y + hh}};
    return b;
}

/* Each draw is a statement of its own wherever C leaves the order open (a call's arguments, an
 * initializer's expressions), so that every compiler draws the same pairs from a seed. The order
 * is the one GCC took when they were not (a call's arguments last to first), so the samples, and
 * the hashes committed from them, stayed the same. */
static mink_vec2 random_vec2(mink_rng *r, float lo, float hi) {
    float x = mink_rng_float(r, lo, hi);
    float y = mink_rng_float(r, lo, hi);
    return (mink_vec2){x, y};
}

/* A box of half-extents drawn from [lo, hi) about c: the height drawn first. */
static mink_aabb random_box_at(mink_rng *r, mink_vec2 c, float lo, float hi) {
    float hh = mink_rng_float(r, lo, hi);
    float hw = mink_rng_float(r, lo, hi);
    return box_at(c, hw, hh);
}

static mink_aabb random_box(mink_rng *r, float extent, float size_lo, float size_hi) {
    mink_vec2 c = random_vec2(r, -extent, extent);
    return random_box_at(r, c, size_lo, size_hi);
}

/* A thin wall at rest, and a start and a velocity that cross it within one step, ending well
 * past it: what a tunnelling bullet looks like when only the ends of the step are tested. */
typedef struct crossing {
    mink_aabb wall;
    mink_vec2 start, velocity;
} crossing;

static crossing thin_wall_crossing(mink_rng *r) {
    crossing x;
    mink_vec2 c = random_vec2(r, -100.0f, 100.0f);
    int vertical = mink_rng_u32(r) & 1u;
    float len = mink_rng_float(r, 5.0f, 30.0f), thin = mink_rng_float(r, 0.01f, 0.2f);
    x.wall = vertical ? box_at(c, thin, len) : box_at(c, len, thin);
    float side = (mink_rng_u32(r) & 1u) ? 1.0f : -1.0f;
    float gap = mink_rng_float(r, 1.0f, 10.0f), beyond = mink_rng_float(r, 1.0f, 50.0f);
    float along = mink_rng_float(r, -0.9f, 0.9f) * len;
    x.start = vertical ? (mink_vec2){c.x + side * gap, c.y + along} : (mink_vec2){c.x + along, c.y + side * gap};
    float travel = -side * (gap + beyond);
    x.velocity = vertical ? (mink_vec2){travel, mink_rng_float(r, -1.0f, 1.0f)}
                          : (mink_vec2){mink_rng_float(r, -1.0f, 1.0f), travel};
    return x;
}

/* A velocity that takes a point at `from` through `to` within the step, arriving at a random
 * fraction of it, plus the target's own velocity. */
static mink_vec2 aim(mink_rng *r, mink_vec2 from, mink_vec2 to, mink_vec2 target_velocity) {
    float speed = mink_rng_float(r, 1.1f, 3.0f);
    return (mink_vec2){(to.x - from.x) * speed + target_velocity.x, (to.y - from.y) * speed + target_velocity.y};
}

static mink_vec2 around(mink_rng *r, mink_vec2 c, float lo, float hi) {
    float dx = mink_rng_float(r, -1.0f, 1.0f), dy = mink_rng_float(r, -1.0f, 1.0f);
    float far = mink_rng_float(r, lo, hi);
    return (mink_vec2){c.x + dx * far, c.y + dy * far};
}

static mink_vec2 random_velocity(mink_rng *r, float v) { return random_vec2(r, -v, v); }

void mink_sample_aabb_pairs(uint64_t seed, size_t count, mink_aabb_pair *out) {
    mink_rng r = mink_rng_seed(seed);
    for (size_t i = 0; i < count; i++) {
        mink_aabb_pair p;
        switch (mink_rng_u32(&r) % 6u) {
        case 4: { /* aimed: a starts outside b and heads for b's centre, arriving inside the step */
            p.b = random_box(&r, 100.0f, 0.5f, 8.0f);
            p.vb = random_velocity(&r, 2.0f);
            mink_vec2 bc = {(p.b.min.x + p.b.max.x) * 0.5f, (p.b.min.y + p.b.max.y) * 0.5f};
            mink_vec2 ac = around(&r, bc, 20.0f, 40.0f);
            p.a = random_box_at(&r, ac, 0.5f, 4.0f);
            p.va = aim(&r, ac, bc, p.vb);
            break;
        }
        case 5: { /* tunnelling: a small fast box crosses a thin platform within one step */
            crossing x = thin_wall_crossing(&r);
            p.a = box_at(x.start, 0.1f, 0.1f);
            p.va = x.velocity;
            p.b = x.wall;
            p.vb = (mink_vec2){0.0f, 0.0f};
            break;
        }
        default: /* anything: mostly misses, some overlaps and hits */
            p.a = random_box(&r, 100.0f, 0.1f, 10.0f);
            p.b = random_box(&r, 100.0f, 0.1f, 10.0f);
            p.va = random_velocity(&r, 30.0f);
            p.vb = random_velocity(&r, 30.0f);
            break;
        }
        out[i] = p;
    }
}

/* A circle about `at` with a radius from [lo, hi): the centre drawn first. */
static mink_circle circle_around(mink_rng *r, mink_vec2 c, float lo, float hi, float r_lo, float r_hi) {
    mink_vec2 at = around(r, c, lo, hi);
    return (mink_circle){at, mink_rng_float(r, r_lo, r_hi)};
}

static mink_circle random_circle(mink_rng *r, float extent, float lo, float hi) {
    mink_vec2 c = random_vec2(r, -extent, extent);
    return (mink_circle){c, mink_rng_float(r, lo, hi)};
}

void mink_sample_circle_pairs(uint64_t seed, size_t count, mink_circle_pair *out) {
    mink_rng r = mink_rng_seed(seed);
    for (size_t i = 0; i < count; i++) {
        mink_circle_pair p;
        switch (mink_rng_u32(&r) % 6u) {
        case 4: /* aimed */
            p.b = random_circle(&r, 100.0f, 0.5f, 6.0f);
            p.vb = random_velocity(&r, 2.0f);
            p.a = circle_around(&r, p.b.center, 15.0f, 40.0f, 0.2f, 4.0f);
            p.va = aim(&r, p.a.center, p.b.center, p.vb);
            break;
        case 5: /* a bullet through a small target within one step */
            p.b = random_circle(&r, 100.0f, 0.2f, 1.0f);
            p.vb = (mink_vec2){0.0f, 0.0f};
            p.a = circle_around(&r, p.b.center, 3.0f, 10.0f, 0.02f, 0.1f);
            p.va = aim(&r, p.a.center, p.b.center, p.vb);
            p.va.x *= 2.0f, p.va.y *= 2.0f; /* it ends well past the target */
            break;
        default:
            p.a = random_circle(&r, 100.0f, 0.1f, 8.0f);
            p.b = random_circle(&r, 100.0f, 0.1f, 8.0f);
            p.va = random_velocity(&r, 30.0f);
            p.vb = random_velocity(&r, 30.0f);
            break;
        }
        out[i] = p;
    }
}

void mink_sample_circle_aabb_pairs(uint64_t seed, size_t count, mink_circle_aabb_pair *out) {
    mink_rng r = mink_rng_seed(seed);
    for (size_t i = 0; i < count; i++) {
        mink_circle_aabb_pair p;
        switch (mink_rng_u32(&r) % 6u) {
        case 4: { /* aimed at the box's centre or near a corner */
            p.b = random_box(&r, 100.0f, 0.5f, 8.0f);
            p.vb = random_velocity(&r, 2.0f);
            int corner = mink_rng_u32(&r) & 1u;
            mink_vec2 to = corner ? p.b.max : (mink_vec2){(p.b.min.x + p.b.max.x) * 0.5f, (p.b.min.y + p.b.max.y) * 0.5f};
            p.a = circle_around(&r, to, 15.0f, 40.0f, 0.2f, 4.0f);
            p.va = aim(&r, p.a.center, to, p.vb);
            break;
        }
        case 5: { /* a bullet through a thin wall */
            crossing x = thin_wall_crossing(&r);
            p.a = (mink_circle){x.start, mink_rng_float(&r, 0.02f, 0.2f)};
            p.va = x.velocity;
            p.b = x.wall;
            p.vb = (mink_vec2){0.0f, 0.0f};
            break;
        }
        default:
            p.a = random_circle(&r, 100.0f, 0.1f, 8.0f);
            p.b = random_box(&r, 100.0f, 0.1f, 10.0f);
            p.va = random_velocity(&r, 30.0f);
            p.vb = random_velocity(&r, 30.0f);
            break;
        }
        out[i] = p;
    }
}

void mink_sample_pairs(uint64_t seed, size_t count, mink_pair *out) {
    mink_rng r = mink_rng_seed(seed);
    for (size_t i = 0; i < count; i++) {
        uint64_t hi = mink_rng_u32(&r);
        uint64_t s = hi << 32 | mink_rng_u32(&r);
        switch (mink_rng_u32(&r) % 4u) {
        case 0: {
            mink_aabb_pair p;
            mink_sample_aabb_pairs(s, 1, &p);
            out[i] = (mink_pair){mink__body_aabb(p.a, p.va), mink__body_aabb(p.b, p.vb)};
            break;
        }
        case 1: {
            mink_circle_pair p;
            mink_sample_circle_pairs(s, 1, &p);
            out[i] = (mink_pair){mink__body_circle(p.a, p.va), mink__body_circle(p.b, p.vb)};
            break;
        }
        default: {
            mink_circle_aabb_pair p;
            mink_sample_circle_aabb_pairs(s, 1, &p);
            mink_pair q = {mink__body_circle(p.a, p.va), mink__body_aabb(p.b, p.vb)};
            if (mink_rng_u32(&r) & 1u) q = (mink_pair){q.b, q.a}; /* box–circle */
            out[i] = q;
            break;
        }
        }
    }
}

/* ---- polygons ----------------------------------------------------------------------------------- */

/* n points at jittered, increasing angles on an ellipse (an affine image of a circle, so always
 * convex), turned by a random angle. `vertices` 0 means 3 to 8 at random. */
static mink_polygon random_polygon(mink_rng *r, mink_vec2 at, float size, uint32_t vertices) {
    uint32_t n = vertices ? vertices : 3u + mink_rng_u32(r) % 6u;
    float sx = size * mink_rng_float(r, 0.4f, 1.0f), sy = size * mink_rng_float(r, 0.4f, 1.0f);
    mink_vec2 pts[MINK_MAX_POLYGON_VERTICES];
    double step = 6.283185307179586 / n, start = mink_rng_float(r, 0.0f, 6.2831853f);
    for (uint32_t i = 0; i < n; i++) {
        double th = start + step * (i + 0.35 * mink_rng_float(r, -1.0f, 1.0f));
        pts[i] = (mink_vec2){(float)(sx * cos(th)), (float)(sy * sin(th))};
    }
    mink_polygon p;
    if (mink__polygon_make(pts, n, at, mink_rng_float(r, -3.2f, 3.2f), &p) != MINK_POLYGON_OK) {
        mink_vec2 square[4] = {{-size, -size}, {size, -size}, {size, size}, {-size, size}};
        mink__polygon_make(square, 4, at, 0.0f, &p);
    }
    return p;
}

static mink_vec2 random_point(mink_rng *r, float extent) { return random_vec2(r, -extent, extent); }

/* A polygon at a random point of the square of half-side `extent`, its size from [lo, hi): the
 * size drawn first, then the point, then the polygon. */
static mink_polygon random_polygon_anywhere(mink_rng *r, float extent, float lo, float hi, uint32_t vertices) {
    float size = mink_rng_float(r, lo, hi);
    mink_vec2 at = random_point(r, extent);
    return random_polygon(r, at, size, vertices);
}

/* The same about c (around()). */
static mink_polygon random_polygon_around(mink_rng *r, mink_vec2 c, float near, float far, float lo, float hi,
                                          uint32_t vertices) {
    float size = mink_rng_float(r, lo, hi);
    mink_vec2 at = around(r, c, near, far);
    return random_polygon(r, at, size, vertices);
}

/* A thin wall as a polygon (a rectangle turned by a small angle) and a crossing through it. */
static mink_polygon thin_wall_polygon(mink_rng *r, crossing *x) {
    *x = thin_wall_crossing(r);
    mink_vec2 c = {(x->wall.min.x + x->wall.max.x) * 0.5f, (x->wall.min.y + x->wall.max.y) * 0.5f};
    float hw = (x->wall.max.x - x->wall.min.x) * 0.5f, hh = (x->wall.max.y - x->wall.min.y) * 0.5f;
    mink_vec2 pts[4] = {{-hw, -hh}, {hw, -hh}, {hw, hh}, {-hw, hh}};
    mink_polygon p;
    mink__polygon_make(pts, 4, c, mink_rng_float(r, -0.05f, 0.05f), &p);
    return p;
}

void mink_sample_polygon_pairs(uint64_t seed, size_t count, uint32_t vertices, mink_polygon_pair *out) {
    mink_rng r = mink_rng_seed(seed);
    for (size_t i = 0; i < count; i++) {
        mink_polygon_pair p;
        switch (mink_rng_u32(&r) % 6u) {
        case 4: /* aimed: a starts outside b and heads for b's centre */
            p.b = random_polygon_anywhere(&r, 100.0f, 0.5f, 8.0f, vertices);
            p.vb = random_velocity(&r, 2.0f);
            p.a = random_polygon_around(&r, p.b.position, 20.0f, 40.0f, 0.5f, 4.0f, vertices);
            p.va = aim(&r, p.a.position, p.b.position, p.vb);
            break;
        case 5: { /* tunnelling: a small fast polygon through a thin wall */
            crossing x;
            p.b = thin_wall_polygon(&r, &x);
            p.vb = (mink_vec2){0.0f, 0.0f};
            p.a = random_polygon(&r, x.start, mink_rng_float(&r, 0.05f, 0.3f), vertices);
            p.va = x.velocity;
            break;
        }
        default:
            p.a = random_polygon_anywhere(&r, 100.0f, 0.1f, 10.0f, vertices);
            p.b = random_polygon_anywhere(&r, 100.0f, 0.1f, 10.0f, vertices);
            p.va = random_velocity(&r, 30.0f);
            p.vb = random_velocity(&r, 30.0f);
            break;
        }
        out[i] = p;
    }
}

void mink_sample_polygon_aabb_pairs(uint64_t seed, size_t count, mink_polygon_aabb_pair *out) {
    mink_rng r = mink_rng_seed(seed);
    for (size_t i = 0; i < count; i++) {
        mink_polygon_aabb_pair p;
        switch (mink_rng_u32(&r) % 6u) {
        case 4: {
            p.b = random_box(&r, 100.0f, 0.5f, 8.0f);
            p.vb = random_velocity(&r, 2.0f);
            mink_vec2 bc = {(p.b.min.x + p.b.max.x) * 0.5f, (p.b.min.y + p.b.max.y) * 0.5f};
            p.a = random_polygon_around(&r, bc, 20.0f, 40.0f, 0.5f, 4.0f, 0);
            p.va = aim(&r, p.a.position, bc, p.vb);
            break;
        }
        case 5: {
            crossing x = thin_wall_crossing(&r);
            p.b = x.wall;
            p.vb = (mink_vec2){0.0f, 0.0f};
            p.a = random_polygon(&r, x.start, mink_rng_float(&r, 0.05f, 0.3f), 0);
            p.va = x.velocity;
            break;
        }
        default:
            p.a = random_polygon_anywhere(&r, 100.0f, 0.1f, 10.0f, 0);
            p.b = random_box(&r, 100.0f, 0.1f, 10.0f);
            p.va = random_velocity(&r, 30.0f);
            p.vb = random_velocity(&r, 30.0f);
            break;
        }
        out[i] = p;
    }
}

void mink_sample_polygon_circle_pairs(uint64_t seed, size_t count, mink_polygon_circle_pair *out) {
    mink_rng r = mink_rng_seed(seed);
    for (size_t i = 0; i < count; i++) {
        mink_polygon_circle_pair p;
        switch (mink_rng_u32(&r) % 6u) {
        case 4: { /* the circle heads for the polygon's centre or one of its vertices */
            p.a = random_polygon_anywhere(&r, 100.0f, 0.5f, 8.0f, 0);
            p.va = random_velocity(&r, 2.0f);
            mink_hull h = mink_polygon_hull(p.a, (mink_vec2){0.0f, 0.0f}, p.a.angle);
            mink_vec2 to = (mink_rng_u32(&r) & 1u) ? h.v[mink_rng_u32(&r) % h.count] : p.a.position;
            p.b = circle_around(&r, to, 15.0f, 40.0f, 0.2f, 4.0f);
            p.vb = aim(&r, p.b.center, to, p.va);
            break;
        }
        case 5: { /* a bullet through a thin wall */
            crossing x;
            p.a = thin_wall_polygon(&r, &x);
            p.va = (mink_vec2){0.0f, 0.0f};
            p.b = (mink_circle){x.start, mink_rng_float(&r, 0.02f, 0.2f)};
            p.vb = x.velocity;
            break;
        }
        default:
            p.a = random_polygon_anywhere(&r, 100.0f, 0.1f, 10.0f, 0);
            p.b = random_circle(&r, 100.0f, 0.1f, 8.0f);
            p.va = random_velocity(&r, 30.0f);
            p.vb = random_velocity(&r, 30.0f);
            break;
        }
        out[i] = p;
    }
}

/* A capsule about `at`: a half-length vector of components within ±length / 2, length drawn in
 * [len_lo, len_hi), the radius in [rad_lo, rad_hi), and one in ten a segment (radius 0). Every
 * number drawn here in a fixed order (a call's arguments are evaluated in no fixed order, and
 * the sample must be the same whatever the compiler): callers pass at most one argument that
 * draws. */
static mink_capsule random_capsule(mink_rng *r, mink_vec2 at, float len_lo, float len_hi, float rad_lo, float rad_hi) {
    float length = mink_rng_float(r, len_lo, len_hi);
    float radius = mink_rng_float(r, rad_lo, rad_hi);
    float dx = mink_rng_float(r, -0.5f * length, 0.5f * length);
    float dy = mink_rng_float(r, -0.5f * length, 0.5f * length);
    if (mink_rng_u32(r) % 10u == 0u) radius = 0.0f;
    return (mink_capsule){{at.x - dx, at.y - dy}, {at.x + dx, at.y + dy}, radius};
}

/* A point of the capsule's segment, from one end (0) to the other (1). */
static mink_vec2 along_capsule(mink_rng *r, mink_capsule c) {
    float u = mink_rng_float(r, 0.0f, 1.0f);
    return (mink_vec2){c.center1.x + (c.center2.x - c.center1.x) * u, c.center1.y + (c.center2.y - c.center1.y) * u};
}

/* A thin wall as a capsule (the crossing's box's long axis, its thickness the radius). */
static mink_capsule thin_wall_capsule(crossing x) {
    float hw = (x.wall.max.x - x.wall.min.x) * 0.5f, hh = (x.wall.max.y - x.wall.min.y) * 0.5f;
    mink_vec2 c = {x.wall.min.x + hw, x.wall.min.y + hh};
    mink_vec2 d = hw > hh ? (mink_vec2){hw - hh, 0.0f} : (mink_vec2){0.0f, hh - hw};
    return (mink_capsule){{c.x - d.x, c.y - d.y}, {c.x + d.x, c.y + d.y}, hw < hh ? hw : hh};
}

void mink_sample_capsule_pairs(uint64_t seed, size_t count, mink_capsule_pair *out) {
    mink_rng r = mink_rng_seed(seed);
    for (size_t i = 0; i < count; i++) {
        mink_capsule_pair p;
        switch (mink_rng_u32(&r) % 6u) {
        case 4: { /* aimed at a point of the other's segment */
            p.b = random_capsule(&r, random_point(&r, 100.0f), 1.0f, 16.0f, 0.1f, 2.0f);
            p.vb = random_velocity(&r, 2.0f);
            mink_vec2 to = along_capsule(&r, p.b);
            p.a = random_capsule(&r, around(&r, to, 15.0f, 40.0f), 0.5f, 8.0f, 0.1f, 2.0f);
            mink_vec2 from = {(p.a.center1.x + p.a.center2.x) * 0.5f, (p.a.center1.y + p.a.center2.y) * 0.5f};
            p.va = aim(&r, from, to, p.vb);
            break;
        }
        case 5: { /* a short fast capsule through a thin wall */
            crossing x = thin_wall_crossing(&r);
            p.a = random_capsule(&r, x.start, 0.05f, 0.5f, 0.02f, 0.1f);
            p.va = x.velocity;
            p.b = thin_wall_capsule(x);
            p.vb = (mink_vec2){0.0f, 0.0f};
            break;
        }
        default:
            p.a = random_capsule(&r, random_point(&r, 100.0f), 0.0f, 16.0f, 0.1f, 4.0f);
            p.b = random_capsule(&r, random_point(&r, 100.0f), 0.0f, 16.0f, 0.1f, 4.0f);
            p.va = random_velocity(&r, 30.0f);
            p.vb = random_velocity(&r, 30.0f);
            break;
        }
        out[i] = p;
    }
}

void mink_sample_capsule_circle_pairs(uint64_t seed, size_t count, mink_capsule_circle_pair *out) {
    mink_rng r = mink_rng_seed(seed);
    for (size_t i = 0; i < count; i++) {
        mink_capsule_circle_pair p;
        switch (mink_rng_u32(&r) % 6u) {
        case 4: { /* a circle aimed at a point of the capsule's segment */
            p.a = random_capsule(&r, random_point(&r, 100.0f), 1.0f, 16.0f, 0.1f, 2.0f);
            p.va = random_velocity(&r, 2.0f);
            mink_vec2 to = along_capsule(&r, p.a);
            p.b.center = around(&r, to, 15.0f, 40.0f);
            p.b.radius = mink_rng_float(&r, 0.2f, 4.0f);
            p.vb = aim(&r, p.b.center, to, p.va);
            break;
        }
        case 5: { /* a bullet through a thin laser */
            crossing x = thin_wall_crossing(&r);
            p.a = thin_wall_capsule(x);
            p.va = (mink_vec2){0.0f, 0.0f};
            p.b.center = x.start;
            p.b.radius = mink_rng_float(&r, 0.02f, 0.2f);
            p.vb = x.velocity;
            break;
        }
        default:
            p.a = random_capsule(&r, random_point(&r, 100.0f), 0.0f, 16.0f, 0.1f, 4.0f);
            p.b = random_circle(&r, 100.0f, 0.1f, 8.0f);
            p.va = random_velocity(&r, 30.0f);
            p.vb = random_velocity(&r, 30.0f);
            break;
        }
        out[i] = p;
    }
}

/* A body of any shape centred near `at`, of about `size`. */
static mink_body random_body(mink_rng *r, mink_vec2 at, float size) {
    switch (mink_rng_u32(r) % 3u) {
    case 0: {
        float hh = size * mink_rng_float(r, 0.3f, 1.0f);
        float hw = size * mink_rng_float(r, 0.3f, 1.0f);
        return mink__body_aabb(box_at(at, hw, hh), (mink_vec2){0.0f, 0.0f});
    }
    case 1: return mink__body_circle((mink_circle){at, size * mink_rng_float(r, 0.3f, 1.0f)}, (mink_vec2){0.0f, 0.0f});
    default: return mink__body_polygon(random_polygon(r, at, size, 0), (mink_vec2){0.0f, 0.0f});
    }
}

void mink_sample_rotating_pairs(uint64_t seed, size_t count, mink_pair *out) {
    mink_rng r = mink_rng_seed(seed);
    for (size_t i = 0; i < count; i++) {
        mink_vec2 bc = random_point(&r, 100.0f);
        mink_body b = random_body(&r, bc, mink_rng_float(&r, 0.5f, 8.0f));
        mink_body a;
        if (mink_rng_u32(&r) % 3u == 0u) { /* aimed */
            mink_vec2 ac = around(&r, bc, 10.0f, 30.0f);
            a = random_body(&r, ac, mink_rng_float(&r, 0.5f, 4.0f));
            b.velocity = random_velocity(&r, 2.0f);
            a.velocity = aim(&r, ac, bc, b.velocity);
        } else { /* near each other, moving at random */
            float size = mink_rng_float(&r, 0.5f, 8.0f);
            a = random_body(&r, around(&r, bc, 0.0f, 25.0f), size);
            a.velocity = random_velocity(&r, 30.0f);
            b.velocity = random_velocity(&r, 30.0f);
        }
        /* Up to about 1.5 turns per step, either way; some bodies do not turn. */
        a.angular_velocity = (mink_rng_u32(&r) & 3u) ? mink_rng_float(&r, -10.0f, 10.0f) : 0.0f;
        b.angular_velocity = (mink_rng_u32(&r) & 3u) ? mink_rng_float(&r, -10.0f, 10.0f) : 0.0f;
        out[i] = (mink_pair){a, b};
    }
}

/* A point on the body's boundary: a box's corner, a circle's rightmost point, a polygon's vertex. */
static mink_vec2 body_vertex(mink_rng *r, mink_body b) {
    if (b.type == MINK_SHAPE_AABB) return b.shape.aabb.max;
    mink_circle c = b.shape.circle;
    if (b.type == MINK_SHAPE_CIRCLE) return (mink_vec2){c.center.x + c.radius, c.center.y};
    mink_hull h = mink_polygon_hull(b.shape.polygon, (mink_vec2){0.0f, 0.0f}, b.shape.polygon.angle);
    return h.v[mink_rng_u32(r) % h.count];
}

void mink_sample_ray_casts(uint64_t seed, size_t count, mink_ray_cast *out) {
    mink_rng r = mink_rng_seed(seed);
    for (size_t i = 0; i < count; i++) {
        mink_vec2 c = random_point(&r, 100.0f), o, to;
        mink_body b = random_body(&r, c, mink_rng_float(&r, 0.5f, 8.0f));
        float k = mink_rng_float(&r, 1.1f, 3.0f); /* aimed rays reach past their target */
        switch (mink_rng_u32(&r) % 5u) {
        case 0: /* at the centre, from outside */
        case 1: /* at a corner or vertex */
            to = (mink_rng_u32(&r) & 1u) ? c : body_vertex(&r, b);
            o = around(&r, to, 10.0f, 40.0f);
            out[i].ray = (mink_ray){o, {(to.x - o.x) * k, (to.y - o.y) * k}};
            break;
        case 2: /* from inside (the centre is inside every shape here) */
            out[i].ray = (mink_ray){c, random_velocity(&r, 30.0f)};
            break;
        case 3: /* along the line of a box's top face (for a box: grazing it) */
            if (b.type == MINK_SHAPE_AABB) {
                o = (mink_vec2){b.shape.aabb.min.x - mink_rng_float(&r, 1.0f, 10.0f), b.shape.aabb.max.y};
                out[i].ray = (mink_ray){o, {(b.shape.aabb.max.x - o.x) * k, 0.0f}};
                break;
            }
            /* fall through */
        default: /* at random: mostly misses */
            o = around(&r, c, 0.0f, 30.0f);
            out[i].ray = (mink_ray){o, random_velocity(&r, 40.0f)};
            break;
        }
        out[i].body = b;
    }
}
