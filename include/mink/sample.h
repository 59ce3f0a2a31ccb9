/* mink/sample.h — deterministic sample batches for demos, benchmarks and tests.
 *
 * The same seed gives the same pairs on every machine (integer arithmetic only). A sample mixes
 * pairs that miss, pairs aimed to hit within the step, and small fast shapes that would tunnel
 * through a thin platform or a small target if tested only at the ends of the step: about a
 * third of the pairs hit.
 * Velocities are in units per step: sweep a sample with dt = 1.
 */
#ifndef MINK_SAMPLE_H
#define MINK_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "mink/geom.h"

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

#ifdef __cplusplus
}
#endif

#endif /* MINK_SAMPLE_H */
