/* host/query.c — the single queries of mink/geom.h, mink/polygon.h and mink/body.h, compiled
 * here (and mink/capsule.h's) once with the library's determinism flags (no contraction, IEEE division and sqrt), so a
 * program's own flags cannot change an answer: each is the inline core function the batches and
 * kernels run, and gives their bits. The turning ones run host/turning.c's build for the
 * processor. */
#include "internal.h"

/* ---- mink/geom.h ---- */

int mink_vec2_is_valid(mink_vec2 v) { return mink__vec2_is_valid(v); }
int mink_aabb_is_valid(mink_aabb b) { return mink__aabb_is_valid(b); }
mink_aabb mink_aabb_minkowski_diff(mink_aabb a, mink_aabb b) { return mink__aabb_minkowski_diff(a, b); }
mink_hit mink_overlap_aabb(mink_aabb a, mink_aabb b) { return mink__overlap_aabb(a, b); }
mink_hit mink_sweep_aabb(mink_aabb a, mink_vec2 va, mink_aabb b, mink_vec2 vb, float dt) {
    return mink__sweep_aabb(a, va, b, vb, dt);
}
int mink_circle_is_valid(mink_circle c) { return mink__circle_is_valid(c); }
mink_hit mink_sweep_circle(mink_circle a, mink_vec2 va, mink_circle b, mink_vec2 vb, float dt) {
    return mink__sweep_circle(a, va, b, vb, dt);
}
mink_hit mink_sweep_circle_aabb(mink_circle a, mink_vec2 va, mink_aabb b, mink_vec2 vb, float dt) {
    return mink__sweep_circle_aabb(a, va, b, vb, dt);
}
mink_hit mink_overlap_circle(mink_circle a, mink_circle b) { return mink__overlap_circle(a, b); }
mink_hit mink_overlap_circle_aabb(mink_circle a, mink_aabb b) { return mink__overlap_circle_aabb(a, b); }

/* ---- mink/polygon.h ---- */

int mink_polygon_is_valid(mink_polygon p) { return mink__polygon_is_valid(p); }
mink_polygon_check mink_polygon_make(const mink_vec2 *points, uint32_t count, mink_vec2 position, float angle,
                                     mink_polygon *out) {
    return mink__polygon_make(points, count, position, angle, out);
}
const char *mink_polygon_check_string(mink_polygon_check why) { return mink__polygon_check_string(why); }
mink_hit mink_sweep_polygon(mink_polygon a, mink_vec2 va, mink_polygon b, mink_vec2 vb, float dt) {
    return mink__sweep_polygon(a, va, b, vb, dt);
}
mink_hit mink_sweep_polygon_aabb(mink_polygon a, mink_vec2 va, mink_aabb b, mink_vec2 vb, float dt) {
    return mink__sweep_polygon_aabb(a, va, b, vb, dt);
}
mink_hit mink_sweep_polygon_circle(mink_polygon a, mink_vec2 va, mink_circle b, mink_vec2 vb, float dt) {
    return mink__sweep_polygon_circle(a, va, b, vb, dt);
}
mink_hit mink_overlap_polygon(mink_polygon a, mink_polygon b) { return mink__overlap_polygon(a, b); }
mink_hit mink_overlap_polygon_aabb(mink_polygon a, mink_aabb b) { return mink__overlap_polygon_aabb(a, b); }
mink_hit mink_overlap_polygon_circle(mink_polygon a, mink_circle b) { return mink__overlap_polygon_circle(a, b); }

/* ---- mink/capsule.h ---- */

int mink_capsule_is_valid(mink_capsule c) { return mink__capsule_is_valid(c); }
mink_hit mink_sweep_capsule(mink_capsule a, mink_vec2 va, mink_capsule b, mink_vec2 vb, float dt) {
    return mink_sweep_capsule_body(a, va, mink__body_capsule(b, vb), dt);
}
mink_hit mink_sweep_capsule_aabb(mink_capsule a, mink_vec2 va, mink_aabb b, mink_vec2 vb, float dt) {
    return mink_sweep_capsule_body(a, va, mink__body_aabb(b, vb), dt);
}
mink_hit mink_sweep_capsule_circle(mink_capsule a, mink_vec2 va, mink_circle b, mink_vec2 vb, float dt) {
    return mink__sweep_capsule_circle(a, va, b, vb, dt);
}
mink_hit mink_sweep_capsule_polygon(mink_capsule a, mink_vec2 va, mink_polygon b, mink_vec2 vb, float dt) {
    return mink_sweep_capsule_body(a, va, mink__body_polygon(b, vb), dt);
}

/* ---- mink/body.h ---- */

mink_body mink_body_zero(uint32_t type, mink_vec2 v) { return mink__body_zero(type, v); }
mink_body mink_body_aabb(mink_aabb box, mink_vec2 v) { return mink__body_aabb(box, v); }
mink_body mink_body_circle(mink_circle c, mink_vec2 v) { return mink__body_circle(c, v); }
mink_body mink_body_polygon(mink_polygon p, mink_vec2 v) { return mink__body_polygon(p, v); }
mink_body mink_body_capsule(mink_capsule c, mink_vec2 v) { return mink__body_capsule(c, v); }
int mink_body_is_valid(mink_body b) { return mink__body_is_valid(b); }
mink_hit mink_sweep_rotating(mink_body a, mink_body b, float dt, mink_rotating_desc desc, uint32_t *iterations) {
    return mink__built_sweep_rotating(a, b, dt, desc, iterations);
}
mink_hit mink_sweep_bodies(mink_body a, mink_body b, float dt) { return mink__built_sweep_bodies(&a, &b, dt); }

mink_hit mink_cast_ray(mink_ray ray, mink_body body) {
    mink_ray_cast c = {ray, body};
    return mink_cast_ray_record(c, 1.0f);
}
