/* tests/test_copies.c — the scalar path's builds for AVX2 and for any x86-64 give the same bits.
 * Record batches copy records into columns and hits back eight at a time in their AVX2 build and
 * four at a time in the other (host/scalar.c); turning pairs are built for x86-64-v3 and for any
 * x86-64 (host/turning.c). The library rebuilt with the test seam (host/seam.h) can take the
 * builds for any x86-64 on any machine: both must give the same bits (test_columns and
 * test_polygon check whichever build this machine takes against the columns and the kernels). */
#include "test_util.h"

#include "seam.h"

typedef enum { BOX, CIRCLE, CIRCLE_BOX } kind;
static const size_t record_of[] = {sizeof(mink_aabb_pair), sizeof(mink_circle_pair), sizeof(mink_circle_aabb_pair)};

static void *make(kind k, uint64_t seed, size_t n) {
    void *p = malloc(n * record_of[k]);
    assert_non_null(p);
    if (k == BOX) mink_sample_aabb_pairs(seed, n, p);
    if (k == CIRCLE) mink_sample_circle_pairs(seed, n, p);
    if (k == CIRCLE_BOX) mink_sample_circle_aabb_pairs(seed, n, p);
    return p;
}

static mink_status sweep(mink_context *ctx, kind k, const void *pairs, size_t n, mink_hit *hits) {
    float dt = 1.0f / 60.0f;
    return k == BOX      ? mink_batch_sweep_aabb(ctx, pairs, n, dt, hits)
           : k == CIRCLE ? mink_batch_sweep_circle(ctx, pairs, n, dt, hits)
                         : mink_batch_sweep_circle_aabb(ctx, pairs, n, dt, hits);
}

/* n records of kind k into hits `skew` bytes past a 16-byte boundary (hits that are not aligned
 * are never streamed), eight and four at a time: the same bytes. */
static void same_both_ways(mink_context *ctx, kind k, size_t n, size_t skew) {
    void *pairs = make(k, 7u + (uint64_t)k, n);
    char *mem[2];
    mink_hit *hits[2];
    for (int four = 0; four < 2; four++) {
        mem[four] = aligned_alloc(64, (n * sizeof(mink_hit) + 64 + 63) / 64 * 64);
        assert_non_null(mem[four]);
        memset(mem[four], 0xA5, n * sizeof(mink_hit) + 64);
        hits[four] = (mink_hit *)(void *)(mem[four] + skew);
        mink__seam_baseline = four;
        assert_int_equal(sweep(ctx, k, pairs, n, hits[four]), MINK_OK);
    }
    mink__seam_baseline = 0;
    if (memcmp(hits[0], hits[1], n * sizeof(mink_hit)) != 0) fail_msg("kind %d, %zu pairs, skew %zu: bits differ", k, n, skew);
    free(mem[0]), free(mem[1]), free(pairs);
}

static void four_and_eight_wide_copies_agree(void **state) {
    (void)state;
#if defined(__GNUC__) && defined(__x86_64__)
    if (!__builtin_cpu_supports("avx2")) {
        print_message("no AVX2 here: both runs would take the four-wide build\n");
        skip();
    }
#else
    skip(); /* one build of the copies */
#endif
    mink_context *ctx = NULL;
    mink_context_desc desc = {.backend = MINK_BACKEND_SCALAR, .threads = 1};
    assert_int_equal(mink_context_create(&desc, &ctx), MINK_OK);
    /* Tails of every length below a group of eight and a block, hits streamed (2^18 records on
     * one thread and more, aligned) and not. */
    const size_t sizes[] = {1, 7, 9, 31, 33, 1000, 4099, ((size_t)1 << 18) + 5};
    for (kind k = BOX; k <= CIRCLE_BOX; k++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            same_both_ways(ctx, k, sizes[s], 0);
            same_both_ways(ctx, k, sizes[s], 4);
        }
    mink_context_destroy(ctx);
}

/* Turning pairs, the sample's and ones far from the origin, through both builds, as a turning
 * batch and as a mixed one (whose turning pairs are answered alone): the same bytes. */
static void turning_builds_agree(void **state) {
    (void)state;
#if defined(MINK_TURNING_V3) /* the library has the x86-64-v3 build (CMakeLists.txt) */
    if (!__builtin_cpu_supports("x86-64-v3")) {
        print_message("no x86-64-v3 here: both runs would take the build for any x86-64\n");
        skip();
    }
#else
    skip(); /* one build */
#endif
    mink_context *ctx = NULL;
    mink_context_desc desc = {.backend = MINK_BACKEND_SCALAR, .threads = 1};
    assert_int_equal(mink_context_create(&desc, &ctx), MINK_OK);
    const size_t n = 20000;
    mink_pair *pairs = malloc(n * sizeof *pairs);
    mink_hit *hits[2] = {malloc(n * sizeof(mink_hit)), malloc(n * sizeof(mink_hit))};
    mink_hit *mixed[2] = {malloc(n * sizeof(mink_hit)), malloc(n * sizeof(mink_hit))};
    assert_non_null(pairs), assert_non_null(hits[0]), assert_non_null(hits[1]);
    assert_non_null(mixed[0]), assert_non_null(mixed[1]);
    mink_sample_rotating_pairs(11, n, pairs);
    for (size_t i = 0; i < n; i += 4) { /* a quarter of them moved far from the origin */
        mink_vec2 off = mink_v2(ldexpf(1.0f, (int)(i % 40)), -ldexpf(1.0f, (int)(i % 23)));
        pairs[i].a = moved_body(pairs[i].a, off), pairs[i].b = moved_body(pairs[i].b, off);
    }
    for (int base = 0; base < 2; base++) {
        mink__seam_baseline = base;
        unsigned long before = atomic_load(&mink__seam_v3_calls);
        assert_int_equal(mink_batch_sweep_rotating(ctx, pairs, n, 1.0f, NULL, hits[base]), MINK_OK);
        assert_int_equal(mink_batch_sweep(ctx, pairs, n, 1.0f, mixed[base]), MINK_OK);
        unsigned long v3_calls = atomic_load(&mink__seam_v3_calls) - before;
        if (base ? v3_calls != 0 : v3_calls == 0) fail_msg("the %s build did not run", base ? "baseline" : "x86-64-v3");
    }
    mink__seam_baseline = 0;
    assert_memory_equal(hits[0], hits[1], n * sizeof(mink_hit));
    assert_memory_equal(mixed[0], mixed[1], n * sizeof(mink_hit));
    free(pairs), free(hits[0]), free(hits[1]), free(mixed[0]), free(mixed[1]);
    mink_context_destroy(ctx);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(four_and_eight_wide_copies_agree),
        cmocka_unit_test(turning_builds_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
