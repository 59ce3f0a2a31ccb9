/* host/turning.c — turning pairs on the scalar path: conservative advancement, one pair at a
 * time, for mink_batch_sweep_rotating, the one-pair queries mink_sweep_rotating and
 * mink_sweep_bodies, and the mixed batch's pairs answered alone (host/scalar.c).
 *
 * Built twice where the compiler can (CMakeLists.txt): here for any processor, and by
 * host/turning_v3.c, which includes this file, for x86-64-v3 (AVX2), each entry picking its
 * build by the processor. The work is scalar code spread over functions the compiler keeps
 * apart, so a target_clones build of the entries alone would call the others' baseline builds:
 * the whole file is built again instead. What the AVX2 build gains is three-operand instructions
 * (docs/benchmarks.md, "Turning pairs built for AVX2").
 *
 * Neither build is vectorized (-fno-tree-vectorize, and clang's -fno-slp-vectorize), and no v3
 * build is made where that cannot be asked: GCC 12's vectorizer turns a hull's rotation,
 * (c·x − s·y, s·x + c·y), into vfmaddsub at x86-64-v3 whatever -ffp-contract says, and a fused
 * instruction changes bits the kernels keep (tests: no_fused_multiply_add, and test_copies,
 * which compares the two builds). */
#include "internal.h"

#if defined(MINK_TURNING_V3_BUILD)
#define MINK_BUILT(name) name##_v3
#else
#define MINK_BUILT(name) name##_any
#endif

/* The entries as this build compiles them. */
mink_hit MINK_BUILT(mink__built_sweep_rotating)(mink_body a, mink_body b, float dt, mink_rotating_desc desc,
                                                uint32_t *iterations);
mink_hit MINK_BUILT(mink__built_sweep_bodies)(const mink_body *a, const mink_body *b, float dt);
void MINK_BUILT(mink__built_rotating)(size_t n, float dt, const mink_rotating_desc *desc, const void *const *in,
                                      void *const *out);

/* The test build counts the calls of the v3 build (host/seam.h), so a test knows which ran. */
#if defined(MINK_FAULT_SEAM) && defined(MINK_TURNING_V3_BUILD)
#define MINK_COUNT_BUILD() atomic_fetch_add_explicit(&mink__seam_v3_calls, 1u, memory_order_relaxed)
#else
#define MINK_COUNT_BUILD() ((void)0)
#endif

mink_hit MINK_BUILT(mink__built_sweep_rotating)(mink_body a, mink_body b, float dt, mink_rotating_desc desc,
                                                uint32_t *iterations) {
    MINK_COUNT_BUILD();
    return mink__sweep_rotating_of(&a, &b, dt, desc, iterations);
}
mink_hit MINK_BUILT(mink__built_sweep_bodies)(const mink_body *a, const mink_body *b, float dt) {
    MINK_COUNT_BUILD();
    return mink__sweep_bodies_of(a, b, dt);
}
void MINK_BUILT(mink__built_rotating)(size_t n, float dt, const mink_rotating_desc *desc, const void *const *in,
                                      void *const *out) {
    MINK_COUNT_BUILD();
    const mink_pair *restrict pairs = in[0];
    mink_hit *restrict hits = out[0];
    for (size_t i = 0; i < n; i++) hits[i] = mink__sweep_rotating_of(&pairs[i].a, &pairs[i].b, dt, *desc, 0);
}

#if !defined(MINK_TURNING_V3_BUILD)
#if defined(MINK_TURNING_V3)
mink_hit mink__built_sweep_rotating_v3(mink_body a, mink_body b, float dt, mink_rotating_desc desc,
                                       uint32_t *iterations);
mink_hit mink__built_sweep_bodies_v3(const mink_body *a, const mink_body *b, float dt);
void mink__built_rotating_v3(size_t n, float dt, const mink_rotating_desc *desc, const void *const *in,
                             void *const *out);

/* Whether the x86-64-v3 build runs here. */
static int v3(void) {
    int yes = __builtin_cpu_supports("x86-64-v3") != 0; /* a nonzero mask, not 1 */
#ifdef MINK_FAULT_SEAM
    yes &= !mink__seam_baseline; /* the test build's switch (host/seam.h) */
#endif
    return yes;
}
#define MINK_PICK(name) (v3() ? name##_v3 : name##_any)
#else
#define MINK_PICK(name) name##_any
#endif

mink_hit mink__built_sweep_rotating(mink_body a, mink_body b, float dt, mink_rotating_desc desc, uint32_t *iterations) {
    return MINK_PICK(mink__built_sweep_rotating)(a, b, dt, desc, iterations);
}
mink_hit mink__built_sweep_bodies(const mink_body *a, const mink_body *b, float dt) {
    return MINK_PICK(mink__built_sweep_bodies)(a, b, dt);
}
void mink__scalar_rotating(size_t n, float dt, const mink_rotating_desc *desc, const void *const *in,
                           void *const *out) {
    MINK_PICK(mink__built_rotating)(n, dt, desc, in, out);
}
#endif
