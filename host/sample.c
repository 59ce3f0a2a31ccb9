/* host/sample.c — deterministic sample batches (see mink/sample.h). */
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

static mink_aabb random_box(mink_rng *r, float extent, float size_lo, float size_hi) {
    mink_vec2 c = {mink_rng_float(r, -extent, extent), mink_rng_float(r, -extent, extent)};
    return box_at(c, mink_rng_float(r, size_lo, size_hi), mink_rng_float(r, size_lo, size_hi));
}

void mink_sample_aabb_pairs(uint64_t seed, size_t count, mink_aabb_pair *out) {
    mink_rng r = mink_rng_seed(seed);
    for (size_t i = 0; i < count; i++) {
        mink_aabb_pair p;
        switch (mink_rng_u32(&r) % 6u) {
        case 4: { /* aimed: a starts outside b and heads for b's centre, arriving inside the step */
            p.b = random_box(&r, 100.0f, 0.5f, 8.0f);
            mink_vec2 bc = {(p.b.min.x + p.b.max.x) * 0.5f, (p.b.min.y + p.b.max.y) * 0.5f};
            float dx = mink_rng_float(&r, -1.0f, 1.0f), dy = mink_rng_float(&r, -1.0f, 1.0f);
            float far = 20.0f + mink_rng_float(&r, 0.0f, 20.0f);
            mink_vec2 ac = {bc.x + dx * far, bc.y + dy * far};
            p.a = box_at(ac, mink_rng_float(&r, 0.5f, 4.0f), mink_rng_float(&r, 0.5f, 4.0f));
            float speed = mink_rng_float(&r, 1.1f, 3.0f);
            p.vb.x = mink_rng_float(&r, -2.0f, 2.0f);
            p.vb.y = mink_rng_float(&r, -2.0f, 2.0f);
            p.va.x = (bc.x - ac.x) * speed + p.vb.x;
            p.va.y = (bc.y - ac.y) * speed + p.vb.y;
            break;
        }
        case 5: { /* tunnelling: a small fast box crosses a thin platform within one step */
            mink_vec2 c = {mink_rng_float(&r, -100.0f, 100.0f), mink_rng_float(&r, -100.0f, 100.0f)};
            int vertical = mink_rng_u32(&r) & 1u;
            float len = mink_rng_float(&r, 5.0f, 30.0f), thin = mink_rng_float(&r, 0.01f, 0.2f);
            p.b = vertical ? box_at(c, thin, len) : box_at(c, len, thin);
            float side = (mink_rng_u32(&r) & 1u) ? 1.0f : -1.0f;
            float gap = mink_rng_float(&r, 1.0f, 10.0f), beyond = mink_rng_float(&r, 1.0f, 50.0f);
            float along = mink_rng_float(&r, -0.9f, 0.9f) * len;
            mink_vec2 ac = vertical ? (mink_vec2){c.x + side * gap, c.y + along}
                                    : (mink_vec2){c.x + along, c.y + side * gap};
            p.a = box_at(ac, 0.1f, 0.1f);
            float travel = -side * (gap + beyond);
            p.va = vertical ? (mink_vec2){travel, mink_rng_float(&r, -1.0f, 1.0f)}
                            : (mink_vec2){mink_rng_float(&r, -1.0f, 1.0f), travel};
            p.vb = (mink_vec2){0.0f, 0.0f};
            break;
        }
        default: /* anything: mostly misses, some overlaps and hits */
            p.a = random_box(&r, 100.0f, 0.1f, 10.0f);
            p.b = random_box(&r, 100.0f, 0.1f, 10.0f);
            p.va = (mink_vec2){mink_rng_float(&r, -30.0f, 30.0f), mink_rng_float(&r, -30.0f, 30.0f)};
            p.vb = (mink_vec2){mink_rng_float(&r, -30.0f, 30.0f), mink_rng_float(&r, -30.0f, 30.0f)};
            break;
        }
        out[i] = p;
    }
}
