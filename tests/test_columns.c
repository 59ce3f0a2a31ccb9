/* tests/test_columns.c — box, circle and circle–box pairs as columns (mink_batch_sweep_aabb_soa,
 * _circle_soa, _circle_aabb_soa) and scalar batches over threads: the same bits as the record
 * batch on every path, however the work is split.
 *
 * The record batch is itself checked against the hand cases (test_aabb) and a double-precision
 * oracle (test_random) on these seeds and scales, so bit-equality with it carries those checks. */
#include "test_util.h"

/* The kinds of columns: boxes (12 floats a pair), circles (10) and circle–box pairs (11), each
 * its record's floats. */
typedef enum { BOX, CIRCLE, CIRCLE_BOX } kind;
static const size_t floats_of[] = {12, 10, 11};
static const size_t record_of[] = {sizeof(mink_aabb_pair), sizeof(mink_circle_pair), sizeof(mink_circle_aabb_pair)};

/* A batch as columns, in and out. */
typedef struct columns {
    float *mem;
    mink_aabb_pair_soa box;
    mink_circle_pair_soa circle;
    mink_circle_aabb_pair_soa circle_box;
    mink_hit_soa out;
} columns;

/* Columns `stride` floats apart (at least n), the first `skew` floats into the allocation. */
static columns columns_skewed(kind k, const void *records, size_t n, size_t stride, size_t skew) {
    columns c;
    size_t floats = floats_of[k];
    c.mem = malloc((stride * (floats + 8) + skew) * sizeof(float) + 1);
    assert_non_null(c.mem);
    float *col[20];
    for (size_t j = 0; j < floats + 8; j++) col[j] = c.mem + skew + j * stride;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < floats; j++)
            memcpy(&col[j][i], (const char *)records + i * record_of[k] + j * sizeof(float), sizeof(float));
    c.box = (mink_aabb_pair_soa){col[0], col[1], col[2], col[3], col[4], col[5], col[6], col[7], col[8], col[9],
                                 col[10], col[11]};
    c.circle = (mink_circle_pair_soa){col[0], col[1], col[2], col[3], col[4], col[5], col[6], col[7], col[8], col[9]};
    c.circle_box = (mink_circle_aabb_pair_soa){col[0], col[1], col[2], col[3], col[4], col[5],
                                               col[6], col[7], col[8], col[9], col[10]};
    float **out = &col[floats];
    c.out = (mink_hit_soa){out[0], out[1], out[2], out[3], out[4], out[5], out[6], (uint32_t *)(void *)out[7]};
    for (int j = 0; j < 8; j++) memset(out[j], 0xA5, stride * sizeof(float)); /* a result never written shows */
    return c;
}

static columns columns_apart(kind k, const void *records, size_t n, size_t stride) {
    return columns_skewed(k, records, n, stride, 0);
}
static columns columns_from(kind k, const void *records, size_t n) { return columns_apart(k, records, n, n); }

static mink_status sweep_columns(mink_context *ctx, kind k, const columns *c, size_t n, float dt) {
    return k == BOX      ? mink_batch_sweep_aabb_soa(ctx, &c->box, n, dt, &c->out)
           : k == CIRCLE ? mink_batch_sweep_circle_soa(ctx, &c->circle, n, dt, &c->out)
                         : mink_batch_sweep_circle_aabb_soa(ctx, &c->circle_box, n, dt, &c->out);
}

static mink_status sweep_records(mink_context *ctx, kind k, const void *records, size_t n, float dt, mink_hit *hits) {
    return k == BOX      ? mink_batch_sweep_aabb(ctx, records, n, dt, hits)
           : k == CIRCLE ? mink_batch_sweep_circle(ctx, records, n, dt, hits)
                         : mink_batch_sweep_circle_aabb(ctx, records, n, dt, hits);
}

static void assert_columns_equal(const columns *c, const mink_hit *want, size_t n) {
    for (size_t i = 0; i < n; i++) {
        mink_hit got = {c->out.t[i], {c->out.normal_x[i], c->out.normal_y[i]}, c->out.depth[i],
                        {c->out.point_x[i], c->out.point_y[i]}, c->out.t_exit[i], c->out.flags[i]};
        if (memcmp(&got, &want[i], sizeof got) != 0) fail_msg("pair %zu of %zu differs from the record batch", i, n);
    }
}

/* The sample at 2^exponent, with some pairs made invalid in every way the checks know. */
static void *make_pairs(kind k, uint64_t seed, size_t n, int exponent) {
    void *p = malloc((n + 1) * record_of[k]);
    assert_non_null(p);
    if (k == BOX) mink_sample_aabb_pairs(seed, n, p);
    else if (k == CIRCLE) mink_sample_circle_pairs(seed, n, p);
    else mink_sample_circle_aabb_pairs(seed, n, p);
    float scale = ldexpf(1.0f, exponent);
    size_t floats = floats_of[k];
    for (size_t i = 0; i < n; i++) {
        float *f = (float *)((char *)p + i * record_of[k]);
        for (size_t j = 0; j < floats; j++) f[j] *= scale;
    }
    for (size_t i = 7; i < n; i += 101) {
        float *f = (float *)((char *)p + i * record_of[k]);
        /* 3e38: valid, but a difference overflows; −1 makes a radius negative */
        const float bad[] = {NAN, INFINITY, -INFINITY, 3e38f, -1.0f};
        f[i % floats] = bad[i % 5];
    }
    return p;
}

/* Contexts that split the work differently: threads, launches, transfers. */
static const mink_context_desc descs[] = {
    {.backend = MINK_BACKEND_SCALAR},
    {.backend = MINK_BACKEND_SCALAR, .threads = 3},
    {.backend = MINK_BACKEND_OPENCL, .transfer = MINK_TRANSFER_MAP},
    {.backend = MINK_BACKEND_OPENCL, .transfer = MINK_TRANSFER_COPY, .max_pairs_per_launch = 40000},
    {.backend = MINK_BACKEND_AUTO, .threads = 2},
};

/* The pairs of kind k on every context of descs, as records and as columns `stride` floats apart:
 * the bits of the scalar path's record batch, and for circle–box pairs of the single query too. */
static void check_pairs(kind k, void *pairs, size_t n, float dt, size_t stride) {
    mink_hit *want = malloc((n + 1) * sizeof *want), *got = malloc((n + 1) * sizeof *got);
    assert_true(want && got);
    mink_context *scalar = NULL;
    assert_int_equal(mink_context_create(&descs[0], &scalar), MINK_OK);
    assert_int_equal(sweep_records(scalar, k, pairs, n, dt, want), MINK_OK);
    mink_context_destroy(scalar);
    if (k == CIRCLE_BOX) /* the single query, which skips a pair that never reaches the box: the same bits */
        for (size_t i = 0; i < n; i++) {
            const mink_circle_aabb_pair *q = (const mink_circle_aabb_pair *)pairs + i;
            mink_hit one = mink_sweep_circle_aabb(q->a, q->va, q->b, q->vb, dt);
            if (memcmp(&one, &want[i], sizeof one) != 0) fail_msg("pair %zu: the single query differs", i);
        }
    if (k == CIRCLE) /* the single query, which always scales (tame blocks do not): the same bits */
        for (size_t i = 0; i < n; i++) {
            const mink_circle_pair *q = (const mink_circle_pair *)pairs + i;
            mink_hit one = mink_sweep_circle(q->a, q->va, q->b, q->vb, dt);
            if (memcmp(&one, &want[i], sizeof one) != 0)
                fail_msg("pair %zu (a (%a, %a) r %a v (%a, %a), b (%a, %a) r %a v (%a, %a)): the single query differs",
                         i, (double)q->a.center.x, (double)q->a.center.y, (double)q->a.radius, (double)q->va.x,
                         (double)q->va.y, (double)q->b.center.x, (double)q->b.center.y, (double)q->b.radius,
                         (double)q->vb.x, (double)q->vb.y);
        }
    for (size_t d = 0; d < sizeof descs / sizeof descs[0]; d++) {
        mink_context *ctx = NULL;
        if (mink_context_create(&descs[d], &ctx) != MINK_OK) fail_msg("context %zu: %s", d, mink_last_error());
        columns c = columns_apart(k, pairs, n, stride);
        assert_int_equal(sweep_columns(ctx, k, &c, n, dt), MINK_OK);
        assert_columns_equal(&c, want, n);
        for (size_t j = 0; j < 8 && stride > n; j++) { /* nothing written past the count */
            uint32_t word;
            memcpy(&word, c.mem + (floats_of[k] + j) * stride + n, sizeof word);
            assert_int_equal(word, 0xA5A5A5A5u);
        }
        mink_batch_stats st = mink_context_stats(ctx);
        assert_int_equal(st.pairs, n);
        assert_int_equal(st.bytes_in, n * record_of[k]);
        assert_int_equal(st.bytes_out, n * sizeof(mink_hit));
        free(c.mem);
        memset(got, 0xA5, n * sizeof *got); /* the records, split the same way */
        assert_int_equal(sweep_records(ctx, k, pairs, n, dt, got), MINK_OK);
        assert_memory_equal(got, want, n * sizeof *got);
        mink_context_destroy(ctx);
    }
    free(want), free(got);
}

static void run_set_apart(kind k, uint64_t seed, size_t n, int exponent, float dt, size_t stride) {
    void *pairs = make_pairs(k, seed, n, exponent);
    check_pairs(k, pairs, n, dt, stride);
    free(pairs);
}

static void run_set(kind k, uint64_t seed, size_t n, int exponent, float dt) {
    run_set_apart(k, seed, n, exponent, dt, n);
}

static void columns_match_records(void **state) {
    (void)state;
    for (kind k = BOX; k <= CIRCLE_BOX; k++) {
        run_set(k, 2026, 100003, 0, 1.0f); /* not a multiple of any block, lane count or work-group */
        run_set(k, 99, 50000, 0, 0.25f);
        run_set(k, 3, 50000, 100, 1.0f);
        run_set(k, 4, 50000, -100, 1.0f);
        run_set(k, 5, 50000, -135, 1.0f); /* subnormal */
        /* Columns 2^18 bytes apart, every one at the same offset in its pages: box columns are
         * copied a block at a time there (host/scalar.c, crowded); a count that fills no block. */
        run_set(k, 6, 65536, 0, 1.0f);
        run_set_apart(k, 7, 64539, 0, 1.0f, 65536);
    }
}

static uint32_t next_random(uint64_t *state) {
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*state >> 33);
}

/* A coordinate of the circle's centre against the box's edges lo, hi on one axis: beyond either
 * edge by the radius give or take an ulp, a tiny or a small amount, or within them. */
static float centre_near(uint64_t *state, float lo, float hi, float r) {
    float edge = next_random(state) % 2 ? lo - r : hi + r;
    switch (next_random(state) % 7) {
    case 0: return edge;
    case 1: return nextafterf(edge, INFINITY);
    case 2: return nextafterf(edge, -INFINITY);
    case 3: return edge + (hi - lo + r) * 1e-7f;
    case 4: return edge - (hi - lo + r) * 1e-7f;
    case 5: return edge + (next_random(state) % 2 ? 0.25f : -0.25f) * (hi - lo + r);
    default: return lo + (hi - lo) * (float)(next_random(state) % 5) * 0.25f;
    }
}

/* Circle–box pairs at the cases the scalar path answers without the whole sweep and the ones
 * around them (host/scalar.c, circle_aabb_loop): centres a radius from a face or a corner give or
 * take an ulp, zero and tiny radii, boxes of zero width, motion along an axis, along a face,
 * diagonal, none, and from 2^-120 to 2^100 of the box, at scales from 2^-100 to 2^90. */
static void circle_box_at_faces_and_corners(void **state) {
    (void)state;
    enum { N = 60013 };
    mink_circle_aabb_pair *p = malloc(N * sizeof *p);
    assert_non_null(p);
    uint64_t rng = 2026;
    const int scales[] = {0, 0, -100, -40, 40, 90};
    const float speeds[] = {0.0f, 0x1p-120f, 0x1p-24f, 0.5f, 1.0f, 3.0f, 0x1p30f, 0x1p100f};
    for (size_t i = 0; i < N; i++) {
        float s = ldexpf(1.0f, scales[next_random(&rng) % 6]);
        float w = s * (float)(next_random(&rng) % 4), h = s * (float)(1 + next_random(&rng) % 3);
        float r = s * (next_random(&rng) % 5 == 0 ? 0.0f : (float)(1 + next_random(&rng) % 8) * 0.125f);
        if (next_random(&rng) % 9 == 0) r = s * 0x1p-30f;
        mink_aabb b = {{s * 3.0f, -s * 2.0f}, {s * 3.0f + w, -s * 2.0f + h}};
        mink_vec2 c = {centre_near(&rng, b.min.x, b.max.x, r), centre_near(&rng, b.min.y, b.max.y, r)};
        /* Towards the box's centre, along an axis, or along a face; either body moving. */
        float v = s * speeds[next_random(&rng) % 8];
        float dx = (b.min.x + b.max.x) * 0.5f - c.x, dy = (b.min.y + b.max.y) * 0.5f - c.y;
        float m = fmaxf(fabsf(dx), fabsf(dy));
        mink_vec2 d = m > 0.0f ? (mink_vec2){dx / m * v, dy / m * v} : (mink_vec2){v, 0.0f};
        switch (next_random(&rng) % 4) {
        case 0: d.y = 0.0f; break;
        case 1: d.x = 0.0f; break;
        case 2: d = (mink_vec2){d.y, -d.x}; break;
        default: break;
        }
        int moves_box = next_random(&rng) % 3 == 0;
        p[i] = (mink_circle_aabb_pair){{c, r}, moves_box ? (mink_vec2){0.0f, 0.0f} : d, b,
                                       moves_box ? (mink_vec2){-d.x, -d.y} : (mink_vec2){0.0f, 0.0f}};
    }
    check_pairs(CIRCLE_BOX, p, N, 1.0f, N);
    check_pairs(CIRCLE_BOX, p, N, 0.5f, N);
    free(p);
}

/* Whether a circle pair's s, d and R (as the sweep forms them, in float) lie where the scalar
 * path leaves out the scalings (core/circle.h, mink_circle_tame), read here in double: each
 * coordinate 0 or within [2^-24, 2^30] and 2^-22 of the largest, R within 2^-12 of it. */
static int circles_tame(const mink_circle_pair *p, float dt) {
    float s[4] = {p->a.center.x - p->b.center.x, p->a.center.y - p->b.center.y, (p->va.x - p->vb.x) * dt,
                  (p->va.y - p->vb.y) * dt};
    double r = (double)(p->a.radius + p->b.radius), most = r;
    for (int k = 0; k < 4; k++) most = fmax(most, fabs((double)s[k]));
    double least = fmax(most * 0x1p-22, 0x1p-24);
    int tame = r >= most * 0x1p-12 && (r == 0.0 || (r >= least && r <= 0x1p30));
    for (int k = 0; k < 4; k++) tame &= s[k] == 0.0f || (fabs((double)s[k]) >= least && fabs((double)s[k]) <= 0x1p30);
    return tame;
}

/* n circle pairs, tame (circles_tame at dt 1 and 0.5) or, `wild`, not: cases below. */
static void circles_drawn(int wild, mink_circle_pair *p, size_t n) {
    uint64_t rng = wild ? 78 : 77;
    size_t made = 0, tries = 0;
    /* tame: the largest 2^-24 .. 2^30, the rest down to 2^-22 of it, R to 2^-12; wild: beyond */
    int low = wild ? -100 : -24, span = wild ? 201 : 55, ratio = wild ? 61 : 23, radius = wild ? 41 : 13;
    while (made < n) {
        tries++;
        double most = ldexp(1.0, low + (int)(next_random(&rng) % (uint32_t)span));
        double u = (next_random(&rng) % 1000) * 0.0062831853;
        double ux = cos(u), uy = sin(u);
        double r = most * ldexp(1.0, -(int)(next_random(&rng) % (uint32_t)radius)) * (1.0 - (next_random(&rng) % 4) * 0.1);
        double sx, sy, dx, dy, t = (next_random(&rng) % 5) * 0.25;
        switch (next_random(&rng) % 9) {
        case 0: /* grazing: the line of motion passes (1 ± 2^-k) R from b's centre */
        case 1: {
            double off = r * (1.0 + (next_random(&rng) % 2 ? 1.0 : -1.0) * ldexp(1.0, -1 - (int)(next_random(&rng) % 23)));
            sx = -uy * off - ux * most * t, sy = ux * off - uy * most * t;
            dx = ux * most, dy = uy * most;
            break;
        }
        case 2: /* touching at time t, moving in */
            sx = ux * r - ux * most * t * 0.5, sy = uy * r - uy * most * t * 0.5;
            dx = -ux * most * 0.5, dy = -uy * most * 0.5;
            break;
        case 3: /* overlapping or concentric */
            sx = ux * r * (next_random(&rng) % 3) * 0.4, sy = uy * r * (next_random(&rng) % 3) * 0.4;
            dx = ux * most, dy = -uy * most;
            break;
        case 4: /* not moving */
            sx = ux * most, sy = uy * most, dx = dy = 0.0;
            break;
        case 5: /* along an axis, coordinates 0 */
            sx = most, sy = 0.0, dx = -most * 0.75, dy = 0.0;
            break;
        case 6: /* on an axis, touching soon: at contact one coordinate of the offset is tiny */
            sx = 0.0, sy = r * (1.0 + ldexp(1.0, -(int)(next_random(&rng) % 24)));
            dx = most * ldexp(1.0, -(int)(next_random(&rng) % (uint32_t)ratio)), dy = -most;
            break;
        default: /* coordinates down to 2^-22 of the largest */
            sx = most * ldexp(1.0, -(int)(next_random(&rng) % (uint32_t)ratio)) * (next_random(&rng) % 2 ? 1 : -1);
            sy = most * ldexp(1.0, -(int)(next_random(&rng) % (uint32_t)ratio)) * (next_random(&rng) % 2 ? 1 : -1);
            dx = -sx * 0.9, dy = most * ldexp(1.0, -(int)(next_random(&rng) % (uint32_t)ratio));
            break;
        }
        double far = next_random(&rng) % 4 == 0 ? most * (double)(next_random(&rng) % 64) : 0.0;
        float ra = (float)(r * 0.25), rb = (float)(r - (double)ra);
        mink_circle_pair q = {{{(float)(far + sx), (float)(far * 0.5 + sy)}, ra}, {(float)dx, (float)dy},
                              {{(float)far, (float)(far * 0.5)}, rb}, {0.0f, 0.0f}};
        if (next_random(&rng) % 3 == 0) q.va = (mink_vec2){q.va.x * 0.5f, q.va.y * 0.5f}, q.vb = (mink_vec2){-q.va.x, -q.va.y};
        int tame = circles_tame(&q, 1.0f) && circles_tame(&q, 0.5f);
        int finite = isfinite(q.a.center.x) && isfinite(q.a.center.y) && isfinite(q.va.x) && isfinite(q.va.y) &&
                     isfinite(q.b.center.x) && isfinite(q.b.center.y) && isfinite(q.vb.x) && isfinite(q.vb.y);
        if (tame == wild || !finite) continue;
        p[made++] = q;
    }
    printf("  %zu %s pairs of %zu drawn\n", n, wild ? "wild" : "tame", tries);
}

/* Circle pairs the scalar path answers without scaling (every block of them tame), drawn to the
 * edges of that range: the largest of s, d and R from 2^-24 to 2^30, the others down to 2^-22 of
 * it, R down to 2^-12 of it; grazing (the closest approach 2^-1..2^-23 of R off it, either way),
 * touching at t = 0, at 1 and between, overlapping, concentric, not moving, moving along the
 * centres' line, coordinates 0, far from the origin. Then pairs beyond that range (sizes 2^-100 to
 * 2^100, ratios to 2^-60), which must be scaled. Every answer is the single query's (which always
 * scales), bit for bit, on every path. */
/* The library's reading of tameness (mink_circle_pair_tame) is circles_tame's, pair by pair; and
 * for a tame pair the roots and the answer's normal (of s, and of the offset at contact) leave out
 * their scalings with the same bits. */
static void tame_as_read(const mink_circle_pair *p, size_t n, float dt) {
    for (size_t i = 0; i < n; i++) {
        const mink_circle_pair *q = &p[i];
        int tame = circles_tame(q, dt);
        if (mink_circle_pair_tame(q->a, q->va, q->b, q->vb, dt) != tame) fail_msg("pair %zu: tame %d read otherwise", i, tame);
        if (!tame) continue;
        mink_vec2 s = mink_v2(q->a.center.x - q->b.center.x, q->a.center.y - q->b.center.y);
        mink_vec2 d = mink_v2((q->va.x - q->vb.x) * dt, (q->va.y - q->vb.y) * dt);
        float R = q->a.radius + q->b.radius, r[2][2], len[3][2];
        int in[2], meets[2];
        meets[0] = mink_circle_roots(s, d, R, &r[0][0], &r[0][1], &in[0]);
        meets[1] = mink_circle_roots_at(s, d, R, 0, 0, &r[1][0], &r[1][1], &in[1]);
        mink_vec2 p0 = mink_v2(s.x + d.x * r[0][0], s.y + d.y * r[0][0]), n[3][2];
        n[0][0] = mink_direction(s, &len[0][0]), n[0][1] = mink_direction_at(s, 0, &len[0][1]);
        n[1][0] = mink_direction(p0, &len[1][0]), n[1][1] = mink_direction_at(p0, 0, &len[1][1]);
        if (meets[0] != meets[1] || in[0] != in[1] || memcmp(r[0], r[1], sizeof r[0]) != 0 ||
            memcmp(&n[0][0], &n[0][1], sizeof n[0][0]) != 0 || memcmp(&n[1][0], &n[1][1], sizeof n[1][0]) != 0 ||
            memcmp(len[0], len[0] + 1, sizeof(float)) != 0 || memcmp(len[1], len[1] + 1, sizeof(float)) != 0)
            fail_msg("pair %zu: unscaled, its roots or normals differ", i);
    }
}

static void tame_circles_keep_the_bits(void **state) {
    (void)state;
    enum { N = 32 * 4096 };
    mink_circle_pair *p = malloc(N * sizeof *p);
    assert_non_null(p);
    for (int wild = 0; wild < 2; wild++) {
        circles_drawn(wild, p, N);
        tame_as_read(p, N, 1.0f);
        tame_as_read(p, N, 0.5f);
        check_pairs(CIRCLE, p, N, 1.0f, N);
        check_pairs(CIRCLE, p, N, 0.5f, N);
    }
    free(p);
}

/* `batches` batches of kind k (seed, n pairs) on one default context, each the scalar path's bits
 * whichever path AUTO chose; with `one_path`, the second batch ran on one path only (the first
 * chose it). */
static void default_context_batches(kind k, uint64_t seed, size_t n, int batches, int one_path) {
    void *pairs = make_pairs(k, seed, n, 0);
    mink_hit *want = malloc(n * sizeof *want), *got = malloc(n * sizeof *got);
    mink_context *scalar = NULL, *ctx = NULL;
    assert_true(pairs && want && got);
    assert_int_equal(mink_context_create(&descs[0], &scalar), MINK_OK);
    assert_int_equal(mink_context_create(NULL, &ctx), MINK_OK);
    assert_int_equal(sweep_records(scalar, k, pairs, n, 1.0f, want), MINK_OK);
    for (int again = 0; again < batches; again++) {
        memset(got, 0xA5, n * sizeof *got);
        assert_int_equal(sweep_records(ctx, k, pairs, n, 1.0f, got), MINK_OK);
        assert_memory_equal(got, want, n * sizeof *got);
        mink_batch_stats st = mink_context_stats(ctx);
        assert_true(st.backend == MINK_BACKEND_SCALAR || st.backend == MINK_BACKEND_OPENCL);
        if (one_path && again == 1) assert_int_equal(st.launches > 0, st.backend == MINK_BACKEND_OPENCL);
    }
    mink_context_destroy(scalar);
    mink_context_destroy(ctx);
    free(pairs), free(want), free(got);
}

/* Batches of 2^20 pairs or more: AUTO times a slice of the first on each path (host/auto.c), so
 * one batch is answered by both; later ones by the faster. The same bits every time. */
static void columns_large_batches(void **state) {
    (void)state;
    size_t n = ((size_t)1 << 20) + 3;
    for (kind k = BOX; k <= CIRCLE_BOX; k++) run_set(k, 77, n, 0, 1.0f);
    /* A thread's share of 2^20 pairs or more writes its hits past the caches (host/scalar.c,
     * MINK_STREAM_HITS) where the array allows. On one thread: records into aligned hits and into
     * hits only 4-byte aligned (as a mink_hit may be), and crowded box and circle–box columns
     * (copied a block at a time), each against three threads' shares, which stream nothing. */
    mink_context *one = NULL, *three = NULL;
    assert_int_equal(mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR, .threads = 1}, &one),
                     MINK_OK);
    assert_int_equal(mink_context_create(&descs[1], &three), MINK_OK);
    for (kind k = BOX; k <= CIRCLE_BOX; k++) {
        void *pairs = make_pairs(k, 81 + k, n, 0);
        mink_hit *want = malloc(n * sizeof *want), *got = malloc(n * sizeof *got);
        char *buf = malloc(n * sizeof(mink_hit) + 4);
        assert_true(pairs && want && got && buf);
        assert_int_equal(sweep_records(three, k, pairs, n, 1.0f, want), MINK_OK);
        assert_int_equal(sweep_records(one, k, pairs, n, 1.0f, got), MINK_OK);
        assert_memory_equal(got, want, n * sizeof *want);
        assert_int_equal(sweep_records(one, k, pairs, n, 1.0f, (mink_hit *)(void *)(buf + 4)), MINK_OK);
        assert_memory_equal(buf + 4, want, n * sizeof *want);
        for (size_t skew = 0; skew < 2 && k != CIRCLE; skew++) { /* a float past 16-byte alignment too */
            columns c = columns_skewed(k, pairs, n, ((size_t)1 << 20) + 1024, skew);
            assert_int_equal(sweep_columns(one, k, &c, n, 1.0f), MINK_OK);
            assert_columns_equal(&c, want, n);
            free(c.mem);
        }
        free(pairs), free(want), free(got), free(buf);
    }
    mink_context_destroy(one);
    mink_context_destroy(three);
    /* A second large batch of the kind on the same context takes the path the first chose. */
    default_context_batches(CIRCLE, 78, n, 2, 1);
}

/* AUTO times the paths again after MINK_AUTO_AGAIN (16) large batches of a kind, or after one
 * that ran slow: eighteen large box batches on one context, each the scalar path's bits, whichever
 * path (or both, when timing) answered it. */
static void auto_times_again_never_changing_bits(void **state) {
    (void)state;
    default_context_batches(BOX, 79, (size_t)1 << 20, 18, 0);
}

/* Small batches: below a thread's share, below a block, one pair, none. */
static void columns_small_batches(void **state) {
    (void)state;
    const size_t sizes[] = {0, 1, 2, 7, 127, 128, 129, 1000};
    for (kind k = BOX; k <= CIRCLE_BOX; k++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) run_set(k, 11 + s, sizes[s], 0, 1.0f);
}

static void columns_bad_arguments(void **state) {
    (void)state;
    mink_context *ctx = NULL;
    assert_int_equal(mink_context_create(&descs[0], &ctx), MINK_OK);
    mink_aabb_pair pair[1];
    mink_sample_aabb_pairs(1, 1, pair);
    columns c = columns_from(BOX, pair, 1);
    assert_int_equal(mink_batch_sweep_aabb_soa(NULL, &c.box, 1, 1.0f, &c.out), MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_batch_sweep_aabb_soa(ctx, NULL, 1, 1.0f, &c.out), MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_batch_sweep_aabb_soa(ctx, &c.box, 1, 1.0f, NULL), MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_batch_sweep_aabb_soa(ctx, &c.box, 1, NAN, &c.out), MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_batch_sweep_aabb_soa(ctx, &c.box, 1, -1.0f, &c.out), MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_batch_sweep_aabb_soa(ctx, &c.box, SIZE_MAX / 8, 1.0f, &c.out), MINK_ERR_INVALID_ARGUMENT);
    mink_aabb_pair_soa no_vb = c.box;
    no_vb.vb_y = NULL;
    assert_int_equal(mink_batch_sweep_aabb_soa(ctx, &no_vb, 1, 1.0f, &c.out), MINK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(mink_last_error(), "input column 11"));
    mink_hit_soa no_flags = c.out;
    no_flags.flags = NULL;
    assert_int_equal(mink_batch_sweep_aabb_soa(ctx, &c.box, 1, 1.0f, &no_flags), MINK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(mink_last_error(), "output column 7"));
    /* Nothing to do: NULL is fine. */
    assert_int_equal(mink_batch_sweep_aabb_soa(ctx, NULL, 0, 1.0f, NULL), MINK_OK);
    assert_int_equal(mink_batch_sweep_aabb_soa(ctx, &no_vb, 0, 1.0f, &no_flags), MINK_OK);
    free(c.mem);

    mink_circle_pair circle[1];
    mink_sample_circle_pairs(1, 1, circle);
    c = columns_from(CIRCLE, circle, 1);
    assert_int_equal(mink_batch_sweep_circle_soa(NULL, &c.circle, 1, 1.0f, &c.out), MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_batch_sweep_circle_soa(ctx, NULL, 1, 1.0f, &c.out), MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_batch_sweep_circle_soa(ctx, &c.circle, 1, 1.0f, NULL), MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_batch_sweep_circle_soa(ctx, &c.circle, 1, INFINITY, &c.out), MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_batch_sweep_circle_soa(ctx, &c.circle, SIZE_MAX / 8, 1.0f, &c.out),
                     MINK_ERR_INVALID_ARGUMENT);
    mink_circle_pair_soa no_radius = c.circle;
    no_radius.b_radius = NULL;
    assert_int_equal(mink_batch_sweep_circle_soa(ctx, &no_radius, 1, 1.0f, &c.out), MINK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(mink_last_error(), "input column 7 of 10"));
    no_flags = c.out;
    no_flags.t = NULL;
    assert_int_equal(mink_batch_sweep_circle_soa(ctx, &c.circle, 1, 1.0f, &no_flags), MINK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(mink_last_error(), "output column 0"));
    assert_int_equal(mink_batch_sweep_circle_soa(ctx, NULL, 0, 1.0f, NULL), MINK_OK);
    free(c.mem);

    mink_circle_aabb_pair circle_box[1];
    mink_sample_circle_aabb_pairs(1, 1, circle_box);
    c = columns_from(CIRCLE_BOX, circle_box, 1);
    assert_int_equal(mink_batch_sweep_circle_aabb_soa(NULL, &c.circle_box, 1, 1.0f, &c.out),
                     MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_batch_sweep_circle_aabb_soa(ctx, NULL, 1, 1.0f, &c.out), MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_batch_sweep_circle_aabb_soa(ctx, &c.circle_box, 1, 1.0f, NULL),
                     MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_batch_sweep_circle_aabb_soa(ctx, &c.circle_box, 1, -INFINITY, &c.out),
                     MINK_ERR_INVALID_ARGUMENT);
    assert_int_equal(mink_batch_sweep_circle_aabb_soa(ctx, &c.circle_box, SIZE_MAX / 8, 1.0f, &c.out),
                     MINK_ERR_INVALID_ARGUMENT);
    mink_circle_aabb_pair_soa no_box = c.circle_box;
    no_box.b_max_x = NULL;
    assert_int_equal(mink_batch_sweep_circle_aabb_soa(ctx, &no_box, 1, 1.0f, &c.out), MINK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(mink_last_error(), "input column 7 of 11"));
    no_flags = c.out;
    no_flags.depth = NULL;
    assert_int_equal(mink_batch_sweep_circle_aabb_soa(ctx, &c.circle_box, 1, 1.0f, &no_flags),
                     MINK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(mink_last_error(), "output column 3"));
    assert_int_equal(mink_batch_sweep_circle_aabb_soa(ctx, NULL, 0, 1.0f, NULL), MINK_OK);
    free(c.mem);
    mink_context_destroy(ctx);
    mink_context *none = NULL;
    assert_int_equal(mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR,
                                                              .threads = MINK_MAX_THREADS + 1},
                                         &none),
                     MINK_ERR_INVALID_ARGUMENT);
    assert_null(none);
}

/* Every other batch kind over threads: the same bits as on one. */
static void threads_keep_the_bits(void **state) {
    (void)state;
    enum { N = 70001 };
    mink_context *one = NULL, *many = NULL;
    assert_int_equal(mink_context_create(&descs[0], &one), MINK_OK);
    assert_int_equal(mink_context_create(&(mink_context_desc){.backend = MINK_BACKEND_SCALAR, .threads = 4}, &many),
                     MINK_OK);
    mink_hit *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    mink_circle_pair *circles = malloc(N * sizeof *circles);
    mink_pair *mixed = malloc(N * sizeof *mixed);
    assert_true(a && b && circles && mixed);
    mink_sample_circle_pairs(8, N, circles);
    assert_int_equal(mink_batch_sweep_circle(one, circles, N, 1.0f, a), MINK_OK);
    assert_int_equal(mink_batch_sweep_circle(many, circles, N, 1.0f, b), MINK_OK);
    assert_memory_equal(a, b, N * sizeof *a);
    mink_sample_pairs(9, N, mixed);
    assert_int_equal(mink_batch_sweep(one, mixed, N, 1.0f, a), MINK_OK);
    assert_int_equal(mink_batch_sweep(many, mixed, N, 1.0f, b), MINK_OK);
    assert_memory_equal(a, b, N * sizeof *a);
    free(a), free(b), free(circles), free(mixed);
    mink_context_destroy(one);
    mink_context_destroy(many);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(columns_match_records),
        cmocka_unit_test(circle_box_at_faces_and_corners),
        cmocka_unit_test(tame_circles_keep_the_bits),
        cmocka_unit_test(columns_small_batches),
        cmocka_unit_test(columns_large_batches),
        cmocka_unit_test(auto_times_again_never_changing_bits),
        cmocka_unit_test(columns_bad_arguments),
        cmocka_unit_test(threads_keep_the_bits),
    };
    if (argc > 1) cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests_name("columns", tests, NULL, NULL);
}
