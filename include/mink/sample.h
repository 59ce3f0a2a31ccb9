/* mink/sample.h — deterministic sample batches for demos, benchmarks and tests.
 *
 * The same seed gives the same pairs from any compiler on any machine: the generator is integer
 * arithmetic, each value is drawn in a set order, and the floats made from them are IEEE single
 * precision, each operation rounded on its own (the library is built without contraction). The
 * one exception: polygons' vertices come from the C library's cos and sin (in double), which
 * another C library may round differently in the last bit. A sample mixes
 * pairs that miss, pairs aimed to hit within the step, and small fast shapes that would tunnel
 * through a thin platform or a small target if tested only at the ends of the step: about a
 * third of the pairs hit.
 * Velocities are in units per step: sweep a sample with dt = 1.
 */
#ifndef MINK_SAMPLE_H
#define MINK_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "mink/body.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A small, fast, portable random generator (PCG32). Seed with mink_rng_seed.
typedef struct mink_rng {
    uint64_t state, inc;
} mink_rng;

mink_rng mink_rng_seed(uint64_t seed);
/// A uniformly distributed 32-bit value.
uint32_t mink_rng_u32(mink_rng *rng);
/// A float uniformly distributed in [lo, hi), with 24 random bits.
float mink_rng_float(mink_rng *rng, float lo, float hi);

/// Fills `out` with `count` box pairs made from `seed`.
void mink_sample_aabb_pairs(uint64_t seed, size_t count, mink_aabb_pair *out);
/// Circle pairs: misses, aimed hits, and small fast bullets through small targets.
void mink_sample_circle_pairs(uint64_t seed, size_t count, mink_circle_pair *out);
/// Circle–box pairs: misses, aimed hits, and small fast bullets through thin walls.
void mink_sample_circle_aabb_pairs(uint64_t seed, size_t count, mink_circle_aabb_pair *out);
/// Mixed pairs, kinds and orders at random: box–box, circle–circle, circle–box and box–circle.
void mink_sample_pairs(uint64_t seed, size_t count, mink_pair *out);
/// Polygon pairs of `vertices` vertices each (0: 3 to 8 at random): misses, aimed hits, and small
/// fast polygons through thin walls. None turns.
void mink_sample_polygon_pairs(uint64_t seed, size_t count, uint32_t vertices, mink_polygon_pair *out);
/// Polygon–box pairs, made the same way.
void mink_sample_polygon_aabb_pairs(uint64_t seed, size_t count, mink_polygon_aabb_pair *out);
/// Polygon–circle pairs: misses, circles aimed at a polygon's centre or vertex, bullets through walls.
void mink_sample_polygon_circle_pairs(uint64_t seed, size_t count, mink_polygon_circle_pair *out);
/// Capsule pairs (one in ten a segment): misses, capsules aimed at a point of the other's
/// segment, and short fast capsules through thin walls (capsules too).
void mink_sample_capsule_pairs(uint64_t seed, size_t count, mink_capsule_pair *out);
/// Capsule–circle pairs: misses, circles aimed at the capsule's segment, bullets through thin lasers.
void mink_sample_capsule_circle_pairs(uint64_t seed, size_t count, mink_capsule_circle_pair *out);
/// Rays against bodies of any shape (none turning): aimed at the body's centre or a vertex, from
/// inside it, along a box's face, and at random (mostly misses).
void mink_sample_ray_casts(uint64_t seed, size_t count, mink_ray_cast *out);
/// Pairs of bodies of any shape near each other, most turning (up to 10 radians per unit of time),
/// a third aimed at each other.
void mink_sample_rotating_pairs(uint64_t seed, size_t count, mink_pair *out);

#ifdef __cplusplus
}
#endif

#endif /* MINK_SAMPLE_H */
